-- Headless Neovim (0.7+) as a real LSP client of `tflsp serve`.
-- Usage: nvim --headless -u NONE -i NONE -n -c "luafile nvim_lsp_check.lua"
-- Environment: TFLSP_PYTHON (interpreter with tflsp), TFLSP_FILE (file to open),
-- TFLSP_LINE (0-based line of a flagged call, for hover and the quick fix).
-- Prints one JSON object per line: diagnostics, hover, lenses, after_fix; exits 1 on failure.
local python = assert(os.getenv("TFLSP_PYTHON"), "TFLSP_PYTHON is not set")
local file = assert(os.getenv("TFLSP_FILE"), "TFLSP_FILE is not set")
local line = tonumber(os.getenv("TFLSP_LINE") or "0")

local function out(tbl) io.stdout:write(vim.json.encode(tbl) .. "\n") end
local function fail(msg)
  out({ error = msg })
  vim.cmd("cquit 1")
end

vim.cmd("edit " .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
local config = {
  name = "tflsp",
  cmd = { python, "-m", "tflsp", "serve", "--stdio" },
  root_dir = vim.fn.fnamemodify(file, ":p:h"),
}
local client_id
if vim.lsp.start then
  client_id = vim.lsp.start(config)
else
  client_id = vim.lsp.start_client(config)
  if client_id then vim.lsp.buf_attach_client(bufnr, client_id) end
end
if not client_id then return fail("could not start tflsp") end

local function current()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(found, {
      lnum = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity,
      message = d.message, source = d.source, code = d.code or lsp.code,
      href = lsp.codeDescription and lsp.codeDescription.href or vim.NIL,
    })
  end
  return found
end

if not vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50) then
  return fail("timeout waiting for diagnostics")
end
local diagnostics = current()
out({ diagnostics = diagnostics })

local position = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = line, character = 6 } }
local responses = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", position, 10000)
local hover
for _, r in pairs(responses or {}) do if r.result then hover = r.result end end
if not hover then return fail("no hover") end
out({ hover = hover })

local lens_responses = vim.lsp.buf_request_sync(bufnr, "textDocument/codeLens",
  { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, 10000)
local lenses = {}
for _, r in pairs(lens_responses or {}) do
  for _, lens in ipairs(r.result or {}) do table.insert(lenses, lens.command.command) end
end
out({ lenses = lenses })

-- Ask for the code actions on the flagged line and apply the preferred quick fix.
local target
for _, d in ipairs(vim.diagnostic.get(bufnr, { lnum = line })) do target = d end
if not target then return fail("no diagnostic on line " .. line) end
local range = { start = { line = line, character = target.col }, ["end"] = { line = line, character = target.end_col } }
-- Neovim 0.7 keeps only code, codeDescription and data of the LSP diagnostic in user_data.
local lsp_diagnostic = vim.tbl_extend("force", (target.user_data or {}).lsp or {}, {
  range = range, message = target.message, severity = target.severity, source = target.source,
})
local params = {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  range = range,
  context = { diagnostics = { lsp_diagnostic } },
}
local action_responses = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 10000)
local fix
for _, r in pairs(action_responses or {}) do
  for _, action in ipairs(r.result or {}) do
    if action.isPreferred and action.edit then fix = action end
  end
end
if not fix then return fail("no preferred quick fix") end
vim.lsp.util.apply_workspace_edit(fix.edit, "utf-16")
local before = #diagnostics
local fixed = vim.wait(20000, function() return #vim.diagnostic.get(bufnr) < before end, 50)
out({ after_fix = current(), fix_title = fix.title, line_text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] })

vim.lsp.stop_client(client_id)
vim.wait(3000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
if not fixed then vim.cmd("cquit 1") end
vim.cmd("qall!")
