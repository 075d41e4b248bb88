-- apispec's language server in Neovim 0.7 or newer, with no plugin.
--
--   require("apispec").setup({ settings = { target = "25.x.122", inlayHints = true } })
--
-- One server serves every buffer of the file types below; `settings` are the
-- keys of [tool.apispec] (docs/editors.md), sent as initializationOptions and
-- as the `apispec` section of workspace/configuration. Neovim 0.8 and newer
-- can use vim.lsp.start instead (docs/editors.md shows both).
local M = {}

M.filetypes = {
  "python", "ps1", "sh", "bash", "zsh", "javascript", "javascriptreact", "typescript",
  "typescriptreact", "go", "cs", "java", "kotlin", "groovy", "ruby", "php", "yaml",
  "json", "markdown", "html",
}

local client_id = nil

function M.setup(opts)
  opts = opts or {}
  local settings = opts.settings or vim.empty_dict()
  local config = {
    name = "apispec",
    cmd = opts.cmd or { "apispec", "lsp" },
    root_dir = opts.root_dir or vim.fn.getcwd(),
    init_options = { settings = settings },
    settings = { apispec = settings },
  }
  vim.api.nvim_create_autocmd("FileType", {
    pattern = opts.filetypes or M.filetypes,
    callback = function(args)
      if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
        client_id = vim.lsp.start_client(config)
      end
      if client_id ~= nil then
        vim.lsp.buf_attach_client(args.buf, client_id)
      end
    end,
  })
end

return M
