; Swift lowered to apispec's capture vocabulary (lower/__init__.py reads it).

(call_expression) @call

(property_declaration name: (pattern) @assign.name value: (_) @assign.value) @assign
(assignment target: (directly_assignable_expression) @assign.name result: (_) @assign.value) @assign

(function_declaration) @function
(init_declaration) @function
(lambda_literal) @function
(class_declaration name: (type_identifier) @class.name) @class

(for_statement item: (_) @for.target collection: (_) @for.iter) @for

(import_declaration) @import

((line_string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((multi_line_string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((raw_string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
