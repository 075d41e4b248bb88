; Go lowered to apispec's capture vocabulary (lower/__init__.py reads it).

(call_expression) @call

(short_var_declaration left: (_) @assign.name right: (_) @assign.value) @assign
(assignment_statement left: (_) @assign.name operator: "=" right: (_) @assign.value) @assign
(assignment_statement left: (_) @assign.name operator: "+=" right: (_) @assign.value) @assign.add
(var_spec value: (_) @assign.value) @assign @assign.name
; a declared container's zero value (`var parts []string`, `var q url.Values`); a
; scalar declared alone (`var max int`) has no value worth following
(var_spec
  type: [(slice_type) (map_type) (array_type) (qualified_type)] @assign.value
  !value) @assign @assign.name
(const_spec value: (_) @assign.value) @assign @assign.name
; a struct literal's keyed fields: what the fields of its type hold (`&Client{base: b}`)
(keyed_element
  key: (literal_element (identifier) @assign.name)
  value: (literal_element (_) @assign.value)) @assign

(function_declaration) @function
(method_declaration) @function
(func_literal) @function
(type_spec name: (type_identifier) @class.name type: (struct_type)) @class

(for_statement (range_clause left: (_) @for.target right: (_) @for.iter)) @for

(import_spec) @import

((interpreted_string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((raw_string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
