; Java lowered to apispec's capture vocabulary (lower/__init__.py reads it).

(method_invocation) @call
(object_creation_expression) @call
; an annotation with arguments: a declarative client's request, or a route (java.py decides)
(annotation) @call

(local_variable_declaration declarator: (variable_declarator name: (_) @assign.name value: (_) @assign.value)) @assign
(field_declaration declarator: (variable_declarator name: (_) @assign.name value: (_) @assign.value)) @assign
; a field declared with a class type and no value: the object injected into it
(field_declaration type: (_) @assign.value declarator: (variable_declarator name: (_) @assign.name . )) @assign
; an enum's constant: an object of the enum made with its arguments
(enum_constant name: (identifier) @assign.name) @assign.value @assign
(assignment_expression left: (_) @assign.name operator: "=" right: (_) @assign.value) @assign
(assignment_expression left: (_) @assign.name operator: "+=" right: (_) @assign.value) @assign.add

(method_declaration) @function
(constructor_declaration) @function
(compact_constructor_declaration) @function
(lambda_expression) @function
(class_declaration name: (identifier) @class.name) @class
(interface_declaration name: (identifier) @class.name) @class
(enum_declaration name: (identifier) @class.name) @class
(record_declaration name: (identifier) @class.name) @class

(enhanced_for_statement name: (_) @for.target value: (_) @for.iter) @for
; `items.map(x -> ...)`, `items.forEach(x -> ...)`: the lambda's parameter takes each element
(method_invocation
  object: (_) @for.iter
  arguments: (argument_list . (lambda_expression parameters: (identifier) @for.target))) @for
(method_invocation
  object: (_) @for.iter
  arguments: (argument_list . (lambda_expression parameters: (inferred_parameters . (identifier) @for.target)))) @for

(import_declaration) @import

((string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
