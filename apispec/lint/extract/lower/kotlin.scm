; Kotlin lowered to apispec's capture vocabulary (lower/__init__.py reads it).

(call_expression) @call
; `client.get<String>(url)` as the grammar reads it (a comparison): a call with type arguments
(binary_expression
  (binary_expression (navigation_expression) "<" (_)) ">" (parenthesized_expression)) @call
; an annotation with arguments: a declarative client's request, or a route (kotlin.py decides)
(annotation (constructor_invocation)) @call
; `conn.requestMethod = "POST"`: a Java property set is its setter's call
(assignment left: (navigation_expression) operator: "=") @call

(property_declaration (variable_declaration) @assign.name "=" (_) @assign.value) @assign
(property_declaration (multi_variable_declaration) @assign.name "=" (_) @assign.value) @assign
; `class X(private val client: HttpClient)`: a field set from the constructor's parameter
(class_parameter ["val" "var"] (identifier) @assign.name @assign.value) @assign
(assignment left: (_) @assign.name operator: "=" right: (_) @assign.value) @assign
(assignment left: (_) @assign.name operator: "+=" right: (_) @assign.value) @assign.add

(function_declaration) @function
(anonymous_function) @function
(lambda_literal) @function
(secondary_constructor) @function
; the primary constructor: its parameters are in scope in the whole class body
(class_declaration (primary_constructor)) @function
(class_declaration name: (identifier) @class.name) @class
(object_declaration name: (identifier) @class.name) @class

(for_statement (variable_declaration) @for.target . "in" . (_) @for.iter) @for
(for_statement (multi_variable_declaration) @for.target . "in" . (_) @for.iter) @for
; `items.map { "\"$it\"" }`, `items.forEach { (k, v) -> ... }`: the lambda's parameter
; (`it` when none is written, kotlin.py) takes each element
(call_expression
  (navigation_expression . (_) @for.iter)
  (annotated_lambda (lambda_literal) @for.target)) @for

(import) @import

((string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((multiline_string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
