; Rust lowered to apispec's capture vocabulary (lower/__init__.py reads it). Macro
; arguments are token trees: lower/rust.py re-reads the ones whose values matter
; (`format!`, `vec!`, `concat!`) as expressions.

(call_expression) @call

(let_declaration pattern: (_) @assign.name value: (_) @assign.value) @assign
(assignment_expression left: (_) @assign.name right: (_) @assign.value) @assign
(compound_assignment_expr left: (_) @assign.name operator: "+=" right: (_) @assign.value) @assign.add
(const_item name: (identifier) @assign.name value: (_) @assign.value) @assign
(static_item name: (identifier) @assign.name value: (_) @assign.value) @assign
; a struct literal sets the fields of its object (`Self { base, http: Client::new() }`)
(field_initializer field: (field_identifier) @assign.name value: (_) @assign.value) @assign
(shorthand_field_initializer (identifier) @assign.name @assign.value) @assign

(function_item) @function
(closure_expression) @function
(impl_item type: (type_identifier) @class.name) @class

(for_expression pattern: (_) @for.target value: (_) @for.iter) @for

(use_declaration) @import

; a route macro's path (`#[get("/devices")]` of actix-web or Rocket) is no call
(attribute_item) @decorator

((string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((raw_string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
