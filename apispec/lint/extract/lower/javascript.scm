; JavaScript (and JSX) lowered to apispec's capture vocabulary (lower/__init__.py reads it).

(call_expression) @call
(new_expression) @call

(variable_declarator name: (_) @assign.name value: (_) @assign.value) @assign
(assignment_expression left: (_) @assign.name right: (_) @assign.value) @assign
(augmented_assignment_expression left: (_) @assign.name operator: "+=" right: (_) @assign.value) @assign.add
(field_definition property: (_) @assign.name value: (_) @assign.value) @assign

(function_declaration) @function
(generator_function_declaration) @function
(function_expression) @function
(arrow_function) @function
(method_definition) @function
(class_declaration name: (_) @class.name) @class
(class name: (_) @class.name) @class

(for_in_statement left: (_) @for.target right: (_) @for.iter) @for
; `items.forEach((item) => ...)`: the callback's parameter takes each element
(call_expression
  function: (member_expression object: (_) @for.iter property: (property_identifier) @_each
    (#any-of? @_each "forEach" "map" "flatMap" "filter" "some" "every" "find"))
  arguments: (arguments . (arrow_function parameters: (formal_parameters . (identifier) @for.target)))) @for
(call_expression
  function: (member_expression object: (_) @for.iter property: (property_identifier) @_each
    (#any-of? @_each "forEach" "map" "flatMap" "filter" "some" "every" "find"))
  arguments: (arguments . (arrow_function parameter: (identifier) @for.target))) @for

(import_statement) @import
(variable_declarator value: (call_expression function: (identifier) arguments: (arguments (string)))) @import
(variable_declarator value: (await_expression (call_expression function: (import) arguments: (arguments (string))))) @import

(decorator) @decorator

((string) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((template_string) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))

; `get headers() { return {...} }`: a getter reads as a field holding what it returns
(method_definition "get" name: (_) @assign.name body: (statement_block (return_statement (_) @assign.value))) @assign
