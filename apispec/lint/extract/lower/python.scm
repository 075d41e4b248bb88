; Python lowered to apispec's capture vocabulary (lower/__init__.py reads it).

(call) @call

(assignment left: (_) @assign.name right: (_) @assign.value) @assign
(augmented_assignment left: (_) @assign.name operator: "+=" right: (_) @assign.value) @assign.add
(with_item value: (as_pattern (_) @assign.value alias: (as_pattern_target (_) @assign.name))) @assign
(named_expression name: (identifier) @assign.name value: (_) @assign.value) @assign

(function_definition) @function
(lambda) @function
(class_definition name: (identifier) @class.name) @class

(for_statement left: (_) @for.target right: (_) @for.iter) @for
(list_comprehension (for_in_clause left: (_) @for.target right: (_) @for.iter)) @for
(dictionary_comprehension (for_in_clause left: (_) @for.target right: (_) @for.iter)) @for
(set_comprehension (for_in_clause left: (_) @for.target right: (_) @for.iter)) @for
(generator_expression (for_in_clause left: (_) @for.target right: (_) @for.iter)) @for

(import_from_statement) @import
(import_statement) @import

(decorator) @decorator

((string) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((concatenated_string) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
