; Shell (bash, sh, zsh, ksh) lowered to apispec's capture vocabulary (lower/__init__.py).
; Every command is a call: its words are its arguments (lower/shell.py).

(command) @call
; a command the grammar could not finish (its line holds text it cannot read): its name
; and the words after it on its line (lower/shell.py)
(ERROR (command_name) @call)

(variable_assignment name: (_) @assign.name "=" value: (_) @assign.value) @assign
(variable_assignment name: (_) @assign.name "+=" value: (_) @assign.value) @assign.add

; `printf -v url FORMAT ...` assigns what printf would print (lower/shell.py drops `-v url`)
((command
  name: (command_name) @_printf
  .
  argument: (word) @_v
  .
  argument: (word) @assign.name) @assign @assign.value
  (#eq? @_printf "printf")
  (#eq? @_v "-v"))

(function_definition) @function

; `for x in a b c`: the loop's words are its iterable (lower/shell.py reads them)
(for_statement variable: (variable_name) @for.target) @for @for.iter

; `source ./lib.sh`, `. "$here/lib.sh"`: the sourced file's functions are in scope
((command_name) @import (#any-of? @import "source" "."))

((word) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((string) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((raw_string) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((ansi_c_string) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((concatenation) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
