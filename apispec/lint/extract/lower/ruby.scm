; Ruby lowered to apispec's capture vocabulary (lower/__init__.py reads it).

(call) @call
; `list << item`: an append, lowered as a `<<` call on the list
(binary operator: "<<") @call

(assignment left: (_) @assign.name right: (_) @assign.value) @assign
(operator_assignment left: (_) @assign.name operator: "||=" right: (_) @assign.value) @assign
(operator_assignment left: (_) @assign.name operator: "+=" right: (_) @assign.value) @assign.add
; a block's first parameter holds what its call yields: the request a Faraday verb
; builds (`conn.get('x') { |req| req.params[...] = ... }`), the connection of
; `Net::HTTP.start(...) { |http| ... }`; iterators' blocks are loops (below)
(call
  method: (identifier) @assign.method
  block: [(block parameters: (block_parameters . (identifier) @assign.name))
          (do_block parameters: (block_parameters . (identifier) @assign.name))]
  (#not-match? @assign.method "^(each|each_with_index|each_with_object|map|flat_map|collect|select|filter|filter_map|reject|each_slice|times|find|detect|sum|group_by|sort_by|tap|then)$")) @assign @assign.value

(method) @function
(singleton_method) @function
(class name: [(constant) @class.name (scope_resolution name: (_) @class.name)]) @class
(module name: [(constant) @class.name (scope_resolution name: (_) @class.name)]) @class

(call
  receiver: (_) @for.iter
  method: (identifier) @for.method
  block: [(block parameters: (block_parameters . (identifier) @for.target))
          (do_block parameters: (block_parameters . (identifier) @for.target))]
  (#match? @for.method "^(each|each_with_index|each_with_object|map|flat_map|collect|select|filter|filter_map|reject)$")) @for
(for pattern: (_) @for.target value: (in (_) @for.iter)) @for

(call
  method: (identifier) @import.method
  arguments: (argument_list . (string) @import.path)
  (#match? @import.method "^require(_relative)?$")) @import

((string) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((heredoc_body) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
((chained_string) @string (#match? @string "/|[Aa][Pp][Ii]|[Pp][Rr][Tt][Gg]|:1616"))
