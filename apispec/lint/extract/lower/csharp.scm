; C# lowered to apispec's capture vocabulary (lower/__init__.py reads it).

(invocation_expression) @call
(object_creation_expression) @call
(implicit_object_creation_expression) @call
(constructor_initializer) @call
; a declarative client's attribute (`[Get("/devices/{id}")]` of Refit) is a request
(attribute_list (attribute) @call)

(variable_declarator name: (identifier) @assign.name . "=" . (_) @assign.value) @assign
(assignment_expression left: (_) @assign.name operator: "=" right: (_) @assign.value) @assign
(assignment_expression left: (_) @assign.name operator: "+=" right: (_) @assign.value) @assign.add
(property_declaration name: (identifier) @assign.name value: (_) @assign.value) @assign
; a primary constructor's parameter is a field of its object
(class_declaration (parameter_list (parameter name: (identifier) @assign.name @assign.value) @assign))
(record_declaration (parameter_list (parameter name: (identifier) @assign.name @assign.value) @assign))
(struct_declaration (parameter_list (parameter name: (identifier) @assign.name @assign.value) @assign))

(method_declaration) @function
(constructor_declaration) @function
(local_function_statement) @function
(lambda_expression) @function
(anonymous_method_expression) @function
(class_declaration (parameter_list) @function)
(record_declaration (parameter_list) @function)
(struct_declaration (parameter_list) @function)

(class_declaration name: (identifier) @class.name) @class
(record_declaration name: (identifier) @class.name) @class
(struct_declaration name: (identifier) @class.name) @class
(interface_declaration name: (identifier) @class.name) @class

(foreach_statement left: (_) @for.target right: (_) @for.iter) @for

(using_directive) @import

((string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((verbatim_string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((raw_string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((interpolated_string_expression) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
