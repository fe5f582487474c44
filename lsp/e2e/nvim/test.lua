-- Headless Neovim 0.7 driving `plugin-lsp serve` as an author would: open
-- the example plugin, read diagnostics, edit, apply a quick fix, run a tool
-- before and after a fix, code lenses, hover, completion, and a manifest
-- typed character by character. Run by lsp/e2e (go test):
--   nvim --headless --clean -c "luafile lsp/e2e/nvim/test.lua"
-- with PLUGIN_LSP_BIN, PLUGIN_DIR, REPO_DIR and RESULTS in the environment.
-- Each step writes "ok <step>" or "FAIL <step>: <why>" to RESULTS; the
-- last line is DONE when the script got to the end.

local BIN = os.getenv("PLUGIN_LSP_BIN")
local DIR = os.getenv("PLUGIN_DIR")
local REPO = os.getenv("REPO_DIR")
local out = assert(io.open(assert(os.getenv("RESULTS"), "RESULTS not set"), "w"))

local function emit(line)
  out:write(line .. "\n")
  out:flush()
end

local failed = false
local function step(name, f)
  if failed then
    emit("skip " .. name .. " (an earlier step failed)")
    return
  end
  local ok, err = xpcall(f, debug.traceback)
  if ok then
    emit("ok " .. name)
  elseif type(err) == "string" and err:match("SKIP: ") then
    emit("skip " .. name .. ": " .. err:match("SKIP: ([^\n]*)"))
  else
    failed = true
    emit("FAIL " .. name .. ": " .. tostring(err):gsub("\n", "\n    "))
  end
end

local function finish()
  emit("DONE")
  out:close()
  vim.cmd("qall!")
end

local manifest_path = DIR .. "/plugin.json"
local page_path = DIR .. "/code/lookup-book.ts"
local manifest_uri = vim.uri_from_fname(manifest_path)
local page_uri = vim.uri_from_fname(page_path)

-- diagnostics as published, by URI
local published = {}
-- messages of window/showMessageRequest (plugin.pin's confirmation)
pin_questions = {}
local exit_code = nil

-- The client comes from the Neovim 0.7 snippet of docs/editors.md
-- (PLUGIN_LSP_SNIPPET): the test only adds its observers to the config the
-- snippet passes to vim.lsp.start_client, then opens plugin.json so that the
-- snippet's FileType autocommand starts the server.
local client_id
local start_client = vim.lsp.start_client
vim.lsp.start_client = function(config)
  assert(config.cmd[1] == "plugin-lsp" and config.root_dir == vim.fn.fnamemodify(DIR, ":p:h"), vim.inspect(config))
  -- the server runs in the plugin folder, as an editor opened there starts it
  -- (VS Code does; a cwd-dependent bug hid while this was the repository)
  config.cmd_cwd = DIR
  config.settings = vim.tbl_deep_extend("force", config.settings or {}, { pluginLsp = { debounceMs = 30 } })
  config.handlers = {
    -- plugin.pin shows the review card and asks: the author picks "Pin".
    ["window/showMessageRequest"] = function(err, result)
      pin_questions = pin_questions or {}
      table.insert(pin_questions, result.message)
      return { title = "Pin" }
    end,
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, cfg)
      published[result.uri] = result
      return vim.lsp.handlers["textDocument/publishDiagnostics"](err, result, ctx, cfg)
    end,
  }
  config.on_exit = function(code, signal)
    exit_code = code
  end
  client_id = start_client(config)
  return client_id
end
dofile(assert(os.getenv("PLUGIN_LSP_SNIPPET"), "PLUGIN_LSP_SNIPPET not set"))
vim.cmd("edit " .. vim.fn.fnameescape(manifest_path))
assert(client_id, "the docs/editors.md snippet did not start a client for plugin.json")

local function client()
  return vim.lsp.get_client_by_id(client_id)
end

local function wait(what, cond, ms)
  if not vim.wait(ms or 15000, cond, 20) then
    error("timed out waiting for " .. what, 2)
  end
end

local function codes(uri)
  local p = published[uri]
  local out = {}
  for _, d in ipairs(p and p.diagnostics or {}) do
    out[d.code] = d
  end
  return out
end

local function open(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  return buf
end

local function lines_of(buf)
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

-- position (0-based line, UTF-16 column) of the first occurrence of needle
local function find(buf, needle, delta)
  for i, line in ipairs(lines_of(buf)) do
    local s = line:find(needle, 1, true)
    if s then
      local col = s - 1 + (delta or 0)
      return { line = i - 1, character = vim.str_utfindex(line, col) }
    end
  end
  error("not found: " .. needle, 2)
end

local function request(buf, method, params)
  local res, err = client().request_sync(method, params, 15000, buf)
  if err then
    error(method .. ": " .. tostring(err), 2)
  end
  if res.err then
    error(method .. ": " .. vim.inspect(res.err), 2)
  end
  return res.result
end

local function set_text(buf, text)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, "\n", true))
end

local mbuf, pbuf

step("initialize", function()
  wait("initialize", function() return client() and client().initialized end)
  local caps = client().server_capabilities
  assert(caps.codeLensProvider and caps.hoverProvider and caps.completionProvider, vim.inspect(caps))
end)

step("diagnostics on open: the example is clean", function()
  mbuf = open(manifest_path)
  wait("diagnostics of plugin.json", function() return published[manifest_uri] ~= nil end)
  assert(#published[manifest_uri].diagnostics == 0, vim.inspect(published[manifest_uri]))
  pbuf = open(page_path)
  wait("diagnostics of the page", function() return published[page_uri] ~= nil end)
  assert(#published[page_uri].diagnostics == 0, vim.inspect(published[page_uri]))
end)

local page_diag
step("an edit in the page, and the updated diagnostics", function()
  local l = find(pbuf, 'const API = "https://api.openlibrary.org";').line
  vim.api.nvim_buf_set_lines(pbuf, l, l + 1, false, { 'const API = "https://books.example.org";' })
  wait("fetch-undeclared-domain", function() return codes(page_uri)["fetch-undeclared-domain"] ~= nil end)
  page_diag = codes(page_uri)["fetch-undeclared-domain"]
  assert(page_diag.message:find("books.example.org", 1, true), page_diag.message)
  assert(page_diag.range.start.line == find(pbuf, "http.fetch").line, "the diagnostic sits on the call")
end)

step("the quick fix edits plugin.json and the diagnostic goes away", function()
  local actions = request(pbuf, "textDocument/codeAction", {
    textDocument = { uri = page_uri },
    range = page_diag.range,
    context = { diagnostics = { page_diag } },
  })
  local fix
  for _, a in ipairs(actions or {}) do
    if a.title:find("books.example.org", 1, true) then fix = a end
  end
  assert(fix, "no add-domain fix in " .. vim.inspect(actions))
  vim.lsp.util.apply_workspace_edit(fix.edit, "utf-16")
  local text = table.concat(lines_of(mbuf), "\n")
  assert(text:find('"books.example.org"', 1, true), text)
  wait("the diagnostic to go", function() return codes(page_uri)["fetch-undeclared-domain"] == nil end)
  -- back to the real API for the runs below
  local l = find(pbuf, 'const API = "https://books.example.org";').line
  vim.api.nvim_buf_set_lines(pbuf, l, l + 1, false, { 'const API = "https://api.openlibrary.org";' })
end)

step("a typo in capabilities.fetch: the preferred fix renames it and every related diagnostic clears", function()
  local before = table.concat(lines_of(mbuf), "\n")
  local l = find(mbuf, '"api.openlibrary.org",').line
  local line = lines_of(mbuf)[l + 1]
  vim.api.nvim_buf_set_lines(mbuf, l, l + 1, false, { (line:gsub('"api%.openlibrary%.org",', '"api.openlibary.org",', 1)) })
  wait("fetch-undeclared-domain", function() return codes(page_uri)["fetch-undeclared-domain"] ~= nil end)
  wait("the manifest's diagnostics", function()
    local c = codes(manifest_uri)
    return c["fetch-unused-domain"] ~= nil and c["credential-unscoped"] ~= nil
  end)
  local d = codes(page_uri)["fetch-undeclared-domain"]
  local actions = request(pbuf, "textDocument/codeAction", {
    textDocument = { uri = page_uri },
    range = d.range,
    context = { diagnostics = { d } },
  })
  local preferred = {}
  for _, a in ipairs(actions or {}) do
    if a.isPreferred then table.insert(preferred, a) end
  end
  assert(#preferred == 1, "want one preferred fix: " .. vim.inspect(actions))
  local want = 'Rename "api.openlibary.org" to "api.openlibrary.org" in capabilities.fetch'
  assert(preferred[1].title:sub(1, #want) == want, preferred[1].title)
  vim.lsp.util.apply_workspace_edit(preferred[1].edit, "utf-16")
  assert(table.concat(lines_of(mbuf), "\n") == before, "the rename restores the manifest")
  wait("the page clean", function() return #published[page_uri].diagnostics == 0 end)
  wait("the typo's diagnostics cleared", function()
    for _, x in ipairs(published[manifest_uri].diagnostics) do
      if x.code == "fetch-undeclared-domain" or x.code == "credential-unscoped" or x.message:find("openlibary", 1, true) then
        return false
      end
    end
    return true
  end)
end)

step("code lenses above each tool", function()
  local lenses = request(mbuf, "textDocument/codeLens", { textDocument = { uri = manifest_uri } })
  assert(#lenses == 3, vim.inspect(lenses))
  assert(lenses[1].command.title == "▶ Run lookupBook", lenses[1].command.title)
  assert(lenses[1].command.command == "plugin.runTool")
  assert(lenses[1].range.start.line == find(mbuf, '"lookupBook"').line)
end)

step("plugin.runTool before and after a fix", function()
  local function run()
    return client().request_sync("workspace/executeCommand", {
      command = "plugin.runTool",
      arguments = { { uri = manifest_uri, tool = "lookupBook", input = { isbn = "9780261103344" } } },
    }, 60000, mbuf)
  end
  local original = table.concat(lines_of(mbuf), "\n")
  local broken = original:gsub('"api%.openlibrary%.org",\n', "", 1)
  set_text(mbuf, broken)
  local res = run()
  assert(not res.err, vim.inspect(res.err))
  assert(res.result.ok == false, "a refused fetch fails the run: " .. vim.inspect(res.result))
  wait("the refused fetch as a diagnostic", function() return codes(page_uri)["fetch-undeclared-domain"] ~= nil end)
  local d = codes(page_uri)["fetch-undeclared-domain"]
  local actions = request(pbuf, "textDocument/codeAction", { textDocument = { uri = page_uri }, range = d.range, context = { diagnostics = { d } } })
  local fix
  for _, a in ipairs(actions or {}) do
    if a.title:find("api.openlibrary.org", 1, true) then fix = a end
  end
  assert(fix, vim.inspect(actions))
  vim.lsp.util.apply_workspace_edit(fix.edit, "utf-16")
  res = run()
  assert(not res.err, vim.inspect(res.err))
  assert(res.result.ok == true, vim.inspect(res.result))
  assert(res.result.result.value == "The Hobbit", vim.inspect(res.result.result))
  local lenses = request(mbuf, "textDocument/codeLens", { textDocument = { uri = manifest_uri } })
  assert(lenses[1].command.title:find("^✓ Title: The Hobbit"), lenses[1].command.title)
end)

step("plugin.runTool with a bad input: InputError, no sandbox", function()
  local res = client().request_sync("workspace/executeCommand", {
    command = "plugin.runTool",
    arguments = { { uri = manifest_uri, tool = "lookupBook", input = { isbn = 9780261103344 } } },
  }, 60000, mbuf)
  assert(not res.err, vim.inspect(res.err))
  local rec = res.result
  assert(rec.ok == false, vim.inspect(rec))
  assert(rec.error.name == "InputError", vim.inspect(rec.error))
  assert(rec.error.file == "plugin.json", vim.inspect(rec.error))
  assert(#rec.error.violations == 1 and rec.error.violations[1].pointer == "/isbn", vim.inspect(rec.error.violations))
  assert(#rec.fetches == 0, vim.inspect(rec.fetches))
end)

step("hover: a credential, its value redacted", function()
  local h = request(mbuf, "textDocument/hover", { textDocument = { uri = manifest_uri }, position = find(mbuf, '"openlibrary_key"', 3) })
  assert(h.contents.kind == "markdown")
  assert(h.contents.value:find("Authorization: Bearer ••••(openlibrary_key)", 1, true), h.contents.value)
  assert(not h.contents.value:find("dev-ol-4f9c2e7a1b", 1, true), "the secret leaked")
end)

step("completion of host methods", function()
  local l = find(mbuf, '"collections.put"]').line
  local line = vim.api.nvim_buf_get_lines(mbuf, l, l + 1, false)[1]
  vim.api.nvim_buf_set_lines(mbuf, l, l + 1, false, { (line:gsub('"collections%.put"%]', '"collections.put", ""]')) })
  local res = request(mbuf, "textDocument/completion", { textDocument = { uri = manifest_uri }, position = find(mbuf, '"collections.put", "', #'"collections.put", "') })
  local labels = {}
  for _, it in ipairs(res.items or res) do table.insert(labels, it.label) end
  assert(table.concat(labels, "|") == "collections.delete|collections.query", table.concat(labels, "|"))
end)

step("a malformed manifest typed character by character", function()
  local f = assert(io.open(manifest_path))
  local full = f:read("*a")
  f:close()
  set_text(mbuf, "")
  local i = 0
  while i < #full do
    i = math.min(#full, i + 3)
    set_text(mbuf, full:sub(1, i))
    if i % 99 == 0 then
      request(mbuf, "textDocument/hover", { textDocument = { uri = manifest_uri }, position = { line = 0, character = 0 } })
    end
  end
  set_text(mbuf, full:gsub("\n$", ""))
  -- The pushed list may not change (unchanged results are not
  -- republished), so ask for the final state (pull diagnostics).
  local report = request(mbuf, "textDocument/diagnostic", { textDocument = { uri = manifest_uri } })
  assert(report.kind == "full" and #report.items == 0, vim.inspect(report))
  assert(not client().is_stopped(), "the server died")
end)

step("pin, widen a domain: snapshot-widened; the quick fix plugin.pin clears it", function()
  local res = request(mbuf, "workspace/executeCommand", { command = "plugin.pin", arguments = { { uri = manifest_uri, confirm = true } } })
  assert(res.pinned == true, vim.inspect(res))
  local text = table.concat(lines_of(mbuf), "\n")
  local widened = text:gsub('"api%.openlibrary%.org",', '"api.openlibrary.org", "api.evil-cdn.example",', 1)
  set_text(mbuf, widened)
  vim.api.nvim_buf_call(mbuf, function() vim.cmd("silent write") end)
  wait("snapshot-widened", function() return codes(manifest_uri)["snapshot-widened"] ~= nil end)
  local d = codes(manifest_uri)["snapshot-widened"]
  assert(d.severity == 1 and d.range.start.line == find(mbuf, '"api.evil-cdn.example"').line, vim.inspect(d))
  assert(d.message:find("pinned: api.openlibrary.org, covers.openlibrary.org", 1, true), d.message)
  local actions = request(mbuf, "textDocument/codeAction", { textDocument = { uri = manifest_uri }, range = d.range, context = { diagnostics = { d } } })
  local fix
  for _, a in ipairs(actions or {}) do
    if a.title == "Re-pin the capability snapshot" then fix = a end
  end
  assert(fix and fix.command and fix.command.command == "plugin.pin", vim.inspect(actions))
  res = request(mbuf, "workspace/executeCommand", { command = fix.command.command, arguments = fix.command.arguments })
  assert(res.pinned == true, vim.inspect(res))
  assert(#pin_questions == 1 and pin_questions[1]:find("+ api.evil-cdn.example (fetch, tools lookupBook", 1, true), vim.inspect(pin_questions))
  wait("snapshot-widened to clear", function() return codes(manifest_uri)["snapshot-widened"] == nil end)
end)

step("shutdown and exit", function()
  client().stop()
  wait("the server to exit", function() return exit_code ~= nil end)
  assert(exit_code == 0, "exit code " .. tostring(exit_code))
end)

finish()
