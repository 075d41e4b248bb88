; Groovy (and Jenkinsfiles) lowered to apispec's capture vocabulary (lower/__init__.py).

(method_invocation) @call
(juxt_function_call) @call
(object_creation_expression) @call
; `new URL(u).text`: a property read is a getter's call
((field_access field: (identifier) @_text) @call (#eq? @_text "text"))
(annotation) @call
; `conn.requestMethod = 'POST'`: a property set is its setter's call
(assignment_expression left: (field_access) operator: "=") @call

(local_variable_declaration declarator: (variable_declarator name: (_) @assign.name value: (_) @assign.value)) @assign
(field_declaration declarator: (variable_declarator name: (_) @assign.name value: (_) @assign.value)) @assign
(assignment_expression left: (_) @assign.name operator: "=" right: (_) @assign.value) @assign
(assignment_expression left: (_) @assign.name operator: "+=" right: (_) @assign.value) @assign.add

(method_declaration) @function
(constructor_declaration) @function
(function_definition) @function
(class_declaration name: (identifier) @class.name) @class

(enhanced_for_statement name: (_) @for.target value: (_) @for.iter) @for

(import_declaration) @import

; a Jenkinsfile's shell and PowerShell steps: `sh "curl ..."`, `sh(script: '...')`
(juxt_function_call
  name: (identifier) @_step (#any-of? @_step "sh" "bat")
  args: (argument_list . [(string_literal) (character_literal)] @region.shell))
(method_invocation
  name: (identifier) @_step (#any-of? @_step "sh" "bat")
  arguments: (argument_list . [(string_literal) (character_literal)] @region.shell))
(juxt_function_call
  name: (identifier) @_step (#any-of? @_step "sh" "bat")
  args: (argument_list (map_item key: (identifier) @_key value: [(string_literal) (character_literal)] @region.shell))
  (#eq? @_key "script"))
(method_invocation
  name: (identifier) @_step (#any-of? @_step "sh" "bat")
  arguments: (argument_list (map_item key: (identifier) @_key value: [(string_literal) (character_literal)] @region.shell))
  (#eq? @_key "script"))
(juxt_function_call
  name: (identifier) @_step (#any-of? @_step "powershell" "pwsh")
  args: (argument_list . [(string_literal) (character_literal)] @region.powershell))
(method_invocation
  name: (identifier) @_step (#any-of? @_step "powershell" "pwsh")
  arguments: (argument_list . [(string_literal) (character_literal)] @region.powershell))

((string_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((character_literal) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
