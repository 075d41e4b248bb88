; PowerShell lowered to apispec's capture vocabulary (lower/__init__.py reads it).
; Commands (`Invoke-RestMethod -Uri $u`) and .NET method calls (`$q.Add(k, v)`,
; `[uri]::EscapeDataString($f)`) are calls; a script's own `param(...)` block holds
; variables with their defaults, as assignments of the script.

(command command_name: (command_name)) @call
(invokation_expression) @call

(assignment_expression
  (left_assignment_expression) @assign.name
  (assignement_operator "=")
  value: (_) @assign.value) @assign
(assignment_expression
  (left_assignment_expression) @assign.name
  (assignement_operator "+=")
  value: (_) @assign.value) @assign.add
(program
  (param_block
    (parameter_list
      (script_parameter
        (variable) @assign.name
        (script_parameter_default (_) @assign.value)) @assign)))

(function_statement) @function
(class_method_definition) @function
(class_statement (simple_name) @class.name) @class

(foreach_statement (variable) @for.target (pipeline) @for.iter) @for

((command) @import (#match? @import "^[Ii][Mm][Pp][Oo][Rr][Tt]-[Mm][Oo][Dd][Uu][Ll][Ee][ \t]"))
((command) @import (#match? @import "^\\.[ \t]"))

((string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((generic_token) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
