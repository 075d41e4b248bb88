; PHP lowered to apispec's capture vocabulary (lower/__init__.py reads it).
; The page text around `<?php ... ?>` is `text` to the grammar: never code.

(function_call_expression) @call
(member_call_expression) @call
(nullsafe_member_call_expression) @call
(scoped_call_expression) @call
(object_creation_expression) @call

(assignment_expression left: (_) @assign.name right: (_) @assign.value) @assign
; `$parts[] = $x`: an append
(assignment_expression
  left: (subscript_expression . (_) @assign.name . "[" . "]")
  right: (_) @assign.value) @assign.add
(augmented_assignment_expression left: (_) @assign.name operator: ".=" right: (_) @assign.value) @assign.add
(augmented_assignment_expression left: (_) @assign.name operator: "+=" right: (_) @assign.value) @assign.add
(augmented_assignment_expression left: (_) @assign.name operator: "??=" right: (_) @assign.value) @assign
(const_element (name) @assign.name . (_) @assign.value) @assign
(property_element name: (_) @assign.name default_value: (_) @assign.value) @assign
(enum_case name: (_) @assign.name value: (_) @assign.value) @assign
; a promoted constructor parameter is a property the constructor sets
(property_promotion_parameter name: (_) @assign.name) @assign @assign.value

(function_definition) @function
(method_declaration) @function
(arrow_function) @function
(anonymous_function) @function
(class_declaration name: (name) @class.name) @class
(trait_declaration name: (name) @class.name) @class
(enum_declaration name: (name) @class.name) @class
(interface_declaration name: (name) @class.name) @class

(foreach_statement (_) @for.iter . "as" . [(variable_name) @for.target (pair (_) . (_) @for.target)]) @for

(namespace_use_declaration) @import
(include_expression) @import
(include_once_expression) @import
(require_expression) @import
(require_once_expression) @import

((string) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((encapsed_string) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((heredoc) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((nowdoc) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
