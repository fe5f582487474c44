-- Headless Neovim driving `plugin-lsp serve` as an author would, with the
-- client configured by a snippet of docs/editors.md pasted as init.lua:
-- open the example plugin, read diagnostics, see the code lenses of the
-- first buffer, open a page, run a tool with the documented command, edit,
-- apply quick fixes, hover, completion, a manifest typed character by
-- character, and the native lane (the approval question, the record,
-- native-reach-at-run on NATIVE_REACH_DIR and its fix). Run by
-- internal/lsp/e2e (go test):
--   nvim --headless --clean -u init.lua -c "luafile internal/lsp/e2e/nvim/test.lua"
-- in the plugin's directory, with PLUGIN_DIR, RESULTS and PLUGIN_LSP_RUN_CMD
-- (the run command of the docs) in the environment and plugin-lsp on PATH.
-- Each step writes "ok <step>" or "FAIL <step>: <why>" to RESULTS; the
-- last line is DONE when the script got to the end.
--
-- The script never starts or attaches the client itself: the snippet does,
-- from its FileType autocommand. It only observes (the diagnostics handlers,
-- the review card's question, the exit code) and, on Neovim 0.11+, calls
-- client methods with ":" (0.7 has "." functions).

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
local RUN_CMD = assert(os.getenv("PLUGIN_LSP_RUN_CMD"), "PLUGIN_LSP_RUN_CMD not set")
local modern = vim.fn.has("nvim-0.11") == 1

-- c:name(...) on 0.11, c.name(...) on 0.7
local function call(c, name, ...)
  if modern then
    return c[name](c, ...)
  end
  return c[name](...)
end

-- How many diagnostic reports arrived per URI, pushed (0.7) or pulled (0.10+);
-- what they hold is read back from vim.diagnostic, as the user sees it.
local reports = {}
local function observe(method, uri_of)
  local orig = vim.lsp.handlers[method]
  if not orig then
    return
  end
  vim.lsp.handlers[method] = function(err, result, ctx, config)
    local r = orig(err, result, ctx, config)
    local uri = uri_of(result, ctx)
    if uri then
      reports[uri] = (reports[uri] or 0) + 1
    end
    return r
  end
end
observe("textDocument/publishDiagnostics", function(result)
  return result and result.uri
end)
observe("textDocument/diagnostic", function(_, ctx)
  return ctx and ctx.params and ctx.params.textDocument and ctx.params.textDocument.uri
end)

-- plugin.pin shows the review card and asks: the author picks "Pin".
pin_questions = {}
vim.lsp.handlers["window/showMessageRequest"] = function(err, result)
  table.insert(pin_questions, result.message)
  return { title = "Pin" }
end

-- The exit code, from the snippet's own config with on_exit added.
local exit_code = nil
local function on_exit(code)
  exit_code = code
end
local configs = {}
if modern then
  vim.lsp.config("plugin_lsp", { on_exit = on_exit })
else
  local start_client = vim.lsp.start_client
  vim.lsp.start_client = function(config)
    table.insert(configs, config)
    local theirs = config.on_exit
    config.on_exit = function(code, signal, id)
      on_exit(code)
      if theirs then
        theirs(code, signal, id)
      end
    end
    return start_client(config)
  end
end

local function clients_of(buf)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf))
end

local function wait(what, cond, ms)
  if not vim.wait(ms or 15000, cond, 20) then
    error("timed out waiting for " .. what, 2)
  end
end

-- UTF-16 length of the first col bytes of line
local function utf16(line, col)
  local n, i = 0, 1
  while i <= col and i <= #line do
    local b = line:byte(i)
    if b >= 0xF0 then
      n, i = n + 2, i + 4
    elseif b >= 0xE0 then
      n, i = n + 1, i + 3
    elseif b >= 0xC0 then
      n, i = n + 1, i + 2
    else
      n, i = n + 1, i + 1
    end
  end
  return n
end

-- The opening, as the reader does it: the first buffer is plugin.json.
vim.cmd("edit " .. vim.fn.fnameescape(manifest_path))
local mbuf = vim.api.nvim_get_current_buf()
local pbuf
local client_id

local function client()
  return vim.lsp.get_client_by_id(client_id)
end

local function buf_of(uri)
  if uri == manifest_uri then
    return mbuf
  end
  return pbuf
end

-- the diagnostics of uri shown in its buffer, by code, in LSP coordinates
local function codes(uri)
  local buf = buf_of(uri)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local function pos(l, c)
    return { line = l, character = utf16(lines[l + 1] or "", c) }
  end
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    out[d.code] = {
      code = d.code,
      message = d.message,
      severity = d.severity,
      range = { start = pos(d.lnum, d.col), ["end"] = pos(d.end_lnum or d.lnum, d.end_col or d.col) },
    }
  end
  return out
end

local function diagnostic_count(uri)
  return #vim.diagnostic.get(buf_of(uri))
end

-- The code lens texts shown in buf, by 0-based line (virtual text of the
-- codelens namespaces, whatever their name in this version).
local function lens_texts(buf)
  local out = {}
  for name, ns in pairs(vim.api.nvim_get_namespaces()) do
    if name:find("codelens", 1, true) then
      for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
        local row, details = m[2], m[4] or {}
        local chunks = {}
        for _, c in ipairs(details.virt_text or {}) do
          table.insert(chunks, c[1])
        end
        for _, l in ipairs(details.virt_lines or {}) do
          for _, c in ipairs(l) do
            table.insert(chunks, c[1])
          end
        end
        out[row] = (out[row] and out[row] .. " " or "") .. table.concat(chunks)
      end
    end
  end
  return out
end

-- opens path the way the reader does (:edit); the snippet attaches it
local function open(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

local function lines_of(buf)
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

-- position (0-based line, UTF-16 column) of the first occurrence of needle
local function find(buf, needle, delta)
  for i, line in ipairs(lines_of(buf)) do
    local s = line:find(needle, 1, true)
    if s then
      return { line = i - 1, character = utf16(line, s - 1 + (delta or 0)) }
    end
  end
  error("not found: " .. needle, 2)
end

local function request_sync(buf, method, params, ms)
  return call(client(), "request_sync", method, params, ms or 15000, buf)
end

local function request(buf, method, params)
  local res, err = request_sync(buf, method, params)
  if err then
    error(method .. ": " .. tostring(err), 2)
  end
  if res.err then
    error(method .. ": " .. vim.inspect(res.err), 2)
  end
  return res.result
end

local function set_text(buf, text)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, "\n", { plain = true }))
end


step("the snippet starts one client for the first buffer, rooted at the plugin", function()
  wait("a client attached to plugin.json", function() return #clients_of(mbuf) > 0 end)
  local cs = clients_of(mbuf)
  assert(#cs == 1, "clients: " .. #cs)
  client_id = cs[1].id
  -- 0.7 lists initialized clients only; 0.11 lists them once attached
  wait("initialize", function() return client().initialized end)
  local c = client()
  assert(c.config.cmd[1] == "plugin-lsp" and c.config.cmd[2] == "serve", vim.inspect(c.config.cmd))
  -- 0.11 resolves the snippet's root_dir function into client.root_dir
  local root = modern and c.root_dir or c.config.root_dir
  assert(root == vim.fn.fnamemodify(DIR, ":p:h"), "root " .. tostring(root))
  if not modern then
    assert(#configs == 1, "start_client calls: " .. #configs)
  end
  local caps = c.server_capabilities
  assert(caps.codeLensProvider and caps.hoverProvider and caps.completionProvider, vim.inspect(caps))
end)

step("diagnostics on open: plugin.json is clean", function()
  wait("diagnostics of plugin.json", function() return (reports[manifest_uri] or 0) > 0 end)
  assert(diagnostic_count(manifest_uri) == 0, vim.inspect(vim.diagnostic.get(mbuf)))
end)

step("code lenses on the first buffer, with no refresh but the snippet's", function()
  local l = find(mbuf, '"lookupBook"').line
  wait("the lens of lookupBook on plugin.json", function()
    local t = lens_texts(mbuf)[l]
    return t ~= nil and t:find("▶ Run lookupBook", 1, true) ~= nil
  end)
end)

step("a page (.ts) opened: attached to the same client, its diagnostics clean", function()
  pbuf = open(page_path)
  assert(vim.bo[pbuf].filetype == "typescript", vim.bo[pbuf].filetype)
  wait("the page attached", function() return #clients_of(pbuf) > 0 end)
  local cs = clients_of(pbuf)
  assert(#cs == 1 and cs[1].id == client_id, "the page got another client")
  wait("diagnostics of the page", function() return (reports[page_uri] or 0) > 0 end)
  assert(diagnostic_count(page_uri) == 0, vim.inspect(vim.diagnostic.get(pbuf)))
  wait("the page's lens", function()
    for _, t in pairs(lens_texts(pbuf)) do
      if t:find("▶ Run lookupBook", 1, true) then return true end
    end
    return false
  end)
end)

step("the documented run command on the ▶ Run line: the lens shows the result", function()
  vim.api.nvim_set_current_buf(mbuf)
  local l = find(mbuf, '"lookupBook"').line
  vim.api.nvim_win_set_cursor(0, { l + 1, 0 })
  vim.cmd(RUN_CMD)
  wait("the lens to show the run", function()
    local t = lens_texts(mbuf)[l]
    return t ~= nil and t:find("✓", 1, true) ~= nil
  end, 60000)
  local t = lens_texts(mbuf)[l]
  assert(t:find("Run again", 1, true), t)
  emit("# lens after the run: " .. t)
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

step(":lua vim.lsp.buf.code_action() on the call: the quick fix edits plugin.json and the diagnostic goes away", function()
  vim.api.nvim_set_current_buf(pbuf)
  -- the cursor on the diagnostic (the call; its line is ASCII, so the
  -- UTF-16 column is the byte column)
  vim.api.nvim_win_set_cursor(0, { page_diag.range.start.line + 1, page_diag.range.start.character })
  local offered = {}
  local select = vim.ui.select
  -- the reader picks the add-domain fix from the menu
  vim.ui.select = function(items, opts, on_choice)
    local pick
    for _, it in ipairs(items) do
      local title = opts.format_item(it)
      table.insert(offered, title)
      if title:find("books.example.org", 1, true) then pick = it end
    end
    on_choice(pick)
  end
  local ok, err = pcall(vim.cmd, "lua vim.lsp.buf.code_action()")
  local applied = ok and vim.wait(15000, function()
    return table.concat(lines_of(mbuf), "\n"):find('"books.example.org"', 1, true) ~= nil
  end, 20)
  vim.ui.select = select
  assert(ok, err)
  assert(applied, "the fix was not applied to plugin.json; the menu offered: " .. vim.inspect(offered))
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
  wait("the page clean", function() return diagnostic_count(page_uri) == 0 end)
  wait("the typo's diagnostics cleared", function()
    for _, x in ipairs(vim.diagnostic.get(mbuf)) do
      if x.code == "fetch-undeclared-domain" or x.code == "credential-unscoped" or x.message:find("openlibary", 1, true) then
        return false
      end
    end
    return true
  end)
end)

step("code lenses above each tool", function()
  local lenses = request(mbuf, "textDocument/codeLens", { textDocument = { uri = manifest_uri } })
  -- the 3 function tools, then the 2 native tools (tg.sendMessage, tg.readChat)
  assert(#lenses == 5, vim.inspect(lenses))
  -- lookupBook ran above: its lens offers to run it again; plugin.json was
  -- edited since (the fixes above), so the lens says that run is stale
  assert(lenses[1].command.title:find("⟳ Run again (plugin.json changed since: ", 1, true), lenses[1].command.title)
  assert(lenses[2].command.title:find("^▶ Run "), lenses[2].command.title)
  assert(lenses[1].command.command == "plugin.runTool")
  assert(lenses[1].range.start.line == find(mbuf, '"lookupBook"').line)
end)

step("plugin.runTool before and after a fix", function()
  local function run()
    return request_sync(mbuf, "workspace/executeCommand", {
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
  local res = request_sync(mbuf, "workspace/executeCommand", {
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
  assert(not call(client(), "is_stopped"), "the server died")
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

-- ---------- the native lane: approval, record, native-reach-at-run and its fix ----------
-- Own helpers: the approval question is answered "Run" by a handler put in
-- front of the script's one (which answers the pin's "Pin"), only for the
-- native question.
local native_questions = {}
local function answer_native_questions()
  local theirs = vim.lsp.handlers["window/showMessageRequest"]
  vim.lsp.handlers["window/showMessageRequest"] = function(err, result, ctx, config)
    if result and type(result.message) == "string" and result.message:find(" with full authority on this machine?", 1, true) then
      table.insert(native_questions, result)
      return { title = "Run" }
    end
    return theirs(err, result, ctx, config)
  end
end

-- the first line of buf's lens texts that holds text (0-based row, text)
local function native_lens(buf, text)
  for row, t in pairs(lens_texts(buf)) do
    if t:find(text, 1, true) then
      return row, t
    end
  end
end

-- the diagnostic code of buf, as vim.diagnostic holds it
local function native_diag(buf, code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == code then
      return d
    end
  end
end

step("a native tool: the documented run command on its ▶ Run line asks first, Run runs it, the record is the native lane's", function()
  answer_native_questions()
  local nbuf = open(DIR .. "/native/telegram.js")
  wait("the module attached to the plugin's client", function() return #clients_of(nbuf) > 0 end)
  assert(clients_of(nbuf)[1].id == client_id, "the module got another client")
  local row = find(nbuf, '"tg.sendMessage": sendMessage').line
  wait("the lens of tg.sendMessage in the module", function()
    local t = lens_texts(nbuf)[row]
    return t ~= nil and t:find("▶ Run tg.sendMessage", 1, true) ~= nil
  end)
  vim.api.nvim_win_set_cursor(0, { row + 1, 0 })
  vim.cmd(RUN_CMD)
  wait("the approval question", function() return #native_questions == 1 end)
  local q = native_questions[1]
  assert(q.message:match("^Run tg%.sendMessage %(native/telegram%.js, sha256:" .. string.rep("%x", 64) .. "%) with full authority on this machine%?$"), q.message)
  assert(#q.actions == 2 and q.actions[1].title == "Run" and q.actions[2].title == "Cancel", vim.inspect(q.actions))
  -- answered Run: the lens shows the run's outcome (the refused socket)
  wait("the lens to show the run", function()
    local t = lens_texts(nbuf)[row]
    return t ~= nil and t:find("Run again", 1, true) ~= nil
  end, 60000)
  local shown = lens_texts(nbuf)[row]
  assert(shown:find("refused the tcp connection to 149.154.16", 1, true), shown)
  emit("# native lens after the run: " .. shown)
  -- the record, as plugin.runTool answers it: the same module bytes are not asked again
  local res = request_sync(nbuf, "workspace/executeCommand", {
    command = "plugin.runTool",
    arguments = { { uri = vim.uri_from_fname(DIR .. "/native/telegram.js"), tool = "tg.readChat" } },
  }, 60000)
  assert(not res.err, vim.inspect(res.err))
  local rec = res.result
  assert(#native_questions == 1, "asked again for an approved module")
  assert(rec.lane == "native" and rec.approval and rec.approval.required == false, vim.inspect(rec))
  assert(#rec.connections == 1, vim.inspect(rec.connections))
  local c = rec.connections[1]
  assert(c.protocol == "tcp" and c.host == "149.154.167.50" and c.port == 443 and c.refused == "fake-providers", vim.inspect(c))
end)

step("native-reach-at-run after a run that opened an undeclared connection; the quick fix from the menu adds the capability and clears it", function()
  local reach = assert(os.getenv("NATIVE_REACH_DIR"), "NATIVE_REACH_DIR not set")
  local probe = reach .. "/native/probe.js"
  local rbuf = open(probe)
  -- the snippet starts a second client, rooted at that plugin
  wait("the probe attached", function() return #clients_of(rbuf) > 0 end)
  local rc = clients_of(rbuf)[1]
  assert(rc.id ~= client_id, "the other plugin shares the first plugin's client")
  local before = #native_questions
  local row = find(rbuf, '"queue.ping": ping').line
  wait("the lens of queue.ping", function()
    local t = lens_texts(rbuf)[row]
    return t ~= nil and t:find("▶ Run queue.ping", 1, true) ~= nil
  end)
  assert(native_diag(rbuf, "native-reach-at-run") == nil, "reported before any run")
  vim.api.nvim_win_set_cursor(0, { row + 1, 0 })
  vim.cmd(RUN_CMD)
  wait("the approval question for the probe", function() return #native_questions == before + 1 end)
  assert(native_questions[#native_questions].message:find("^Run queue%.ping %(native/probe%.js, sha256:"), native_questions[#native_questions].message)
  wait("native-reach-at-run", function() return native_diag(rbuf, "native-reach-at-run") ~= nil end, 60000)
  local d = native_diag(rbuf, "native-reach-at-run")
  assert(d.severity == vim.diagnostic.severity.ERROR, vim.inspect(d))
  local key = find(rbuf, '"queue.ping": ping')
  assert(d.lnum == key.line and d.col == key.character, vim.inspect(d))
  assert(d.message == 'the last run of queue.ping opened a tcp connection to 127.0.0.1:6379 (refused: fake-providers), which its requires does not grant: add "network.socket"', d.message)
  -- the documented menu, the fix picked by the reader
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local offered = {}
  local select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    local pick
    for _, it in ipairs(items) do
      local title = opts.format_item(it)
      table.insert(offered, title)
      if title == 'Add "network.socket" to the requires of queue.ping' then pick = it end
    end
    on_choice(pick)
  end
  local ok, err = pcall(vim.cmd, "lua vim.lsp.buf.code_action()")
  local applied = ok and vim.wait(15000, function()
    return table.concat(lines_of(rbuf), "\n"):find('requires: ["network.socket"],', 1, true) ~= nil
  end, 20)
  vim.ui.select = select
  assert(ok, err)
  assert(applied, "the fix was not applied to the module; the menu offered: " .. vim.inspect(offered))
  wait("native-reach-at-run to clear", function() return native_diag(rbuf, "native-reach-at-run") == nil end)
end)

step("shutdown and exit", function()
  call(client(), "stop")
  wait("the server to exit", function() return exit_code ~= nil end)
  assert(exit_code == 0, "exit code " .. tostring(exit_code))
end)

-- Exploration (issue 29): a second plugin, EXPLORE_DIR (a copy of
-- internal/lsp/e2e/testdata/explored), whose page fetches
-- status.example.net written out (static analysis reports it) and
-- mirror.example.org from a Map registry through an injected function
-- (only exploration, which runs the tool in the sandbox, reaches it).
-- Opened as the reader opens a plugin: the snippet starts its own client.
do
  local EX_DIR = os.getenv("EXPLORE_DIR")
  local ex_manifest = EX_DIR and EX_DIR .. "/plugin.json"
  local ex_page = EX_DIR and EX_DIR .. "/code/mirror.ts"
  local ex_page_uri = EX_DIR and vim.uri_from_fname(ex_page)
  local EXPLORED = "^mirror%.example%.org is not in capabilities%.fetch: .*%(exploring tool mirror, reached with input {.*}%)$"
  local STATIC = "^status%.example%.net is not in capabilities%.fetch: the broker refuses this request$"
  -- every publish of the page, in order: the messages it held
  local ex_history = {}
  local orig = vim.lsp.handlers["textDocument/publishDiagnostics"]
  vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
    if result and result.uri == ex_page_uri then
      local msgs = {}
      for _, d in ipairs(result.diagnostics or {}) do
        table.insert(msgs, d.message)
      end
      table.insert(ex_history, msgs)
    end
    return orig(err, result, ctx, config)
  end
  local function count(msgs, pat)
    local n = 0
    for _, m in ipairs(msgs) do
      if m:find(pat) then n = n + 1 end
    end
    return n
  end
  local function shown(buf)
    local msgs = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      table.insert(msgs, d.message)
    end
    return msgs
  end
  local ex_mbuf, ex_pbuf, ex_diag

  step("exploration: the static diagnostics first, then the explored one", function()
    if not EX_DIR then error("SKIP: EXPLORE_DIR is not set") end
    ex_mbuf = open(ex_manifest)
    ex_pbuf = open(ex_page)
    wait("a client for the explored plugin", function() return #clients_of(ex_pbuf) > 0 end)
    wait("the explored diagnostic", function() return count(shown(ex_pbuf), EXPLORED) > 0 end, 60000)
    local first, first_explored
    for i, msgs in ipairs(ex_history) do
      if not first and count(msgs, STATIC) > 0 then first = i end
      if not first_explored and count(msgs, EXPLORED) > 0 then first_explored = i end
    end
    assert(first and count(ex_history[first], EXPLORED) == 0, "the first publish with the static diagnostic has no explored one: " .. vim.inspect(ex_history))
    assert(first_explored and first_explored > first, "the explored diagnostic came after the static ones: " .. vim.inspect(ex_history))
    -- replaced, not appended: each once
    local now = shown(ex_pbuf)
    assert(count(now, STATIC) == 1 and count(now, EXPLORED) == 1, vim.inspect(now))
    for _, d in ipairs(vim.diagnostic.get(ex_pbuf)) do
      if d.message:find(EXPLORED) then ex_diag = d end
    end
    assert(ex_diag.code == "fetch-undeclared-domain", vim.inspect(ex_diag))
    assert(ex_diag.lnum == find(ex_pbuf, "return get(url);").line, "the explored diagnostic sits at the injected function's call: " .. vim.inspect(ex_diag))
  end)

  step("exploration: :lua vim.lsp.buf.code_action() on it adds the domain and it clears", function()
    vim.api.nvim_set_current_buf(ex_pbuf)
    vim.api.nvim_win_set_cursor(0, { ex_diag.lnum + 1, ex_diag.col })
    local offered = {}
    local select = vim.ui.select
    vim.ui.select = function(items, opts, on_choice)
      local pick
      for _, it in ipairs(items) do
        local title = opts.format_item(it)
        table.insert(offered, title)
        if title == 'Add "mirror.example.org" to capabilities.fetch' then pick = it end
      end
      on_choice(pick)
    end
    local ok, err = pcall(vim.cmd, "lua vim.lsp.buf.code_action()")
    local applied = ok and vim.wait(15000, function()
      return table.concat(lines_of(ex_mbuf), "\n"):find('"mirror.example.org"', 1, true) ~= nil
    end, 20)
    vim.ui.select = select
    assert(ok, err)
    assert(applied, "the fix was not applied to plugin.json; the menu offered: " .. vim.inspect(offered))
    wait("the explored diagnostic to clear", function() return count(shown(ex_pbuf), EXPLORED) == 0 end)
    assert(count(shown(ex_pbuf), STATIC) == 1, "the static diagnostic stays: " .. vim.inspect(shown(ex_pbuf)))
  end)
end

finish()
