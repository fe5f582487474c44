;;; test.el --- Emacs 28 + eglot driving `plugin-lsp serve' -*- lexical-binding: t -*-

;; Batch Emacs with Debian's elpa-eglot (1.9) as an author would use it,
;; configured by the emacs snippet of docs/editors.md (PLUGIN_LSP_INIT,
;; loaded as the user's init file): open plugin.json and a page, read
;; diagnostics, edit a page, apply the quick fix, run a tool with the
;; snippet's command, hover, complete, shut down.  Run by internal/lsp/e2e (go test):
;;   emacs --batch -l internal/lsp/e2e/emacs/test.el
;; in the plugin's directory, with PLUGIN_DIR, PLUGIN_LSP_INIT and RESULTS
;; in the environment, plugin-lsp on PATH and HOME an empty directory.  Each step writes "ok
;; <step>", "skip <step>: <why>" or "FAIL <step>: <why>" to RESULTS; the
;; last line is DONE when the script got to the end.
;;
;; The script starts no server itself: the snippet's hook does.  Batch
;; Emacs has no command loop, so the script runs what it would run after
;; a command (`post-command-hook', where `eglot-ensure' connects) and
;; sends didChange after each edit (eglot sends it from an idle timer,
;; and batch Emacs runs none).  Eglot 1.9 without markdown-mode declares
;; plain-text hovers and no relatedInformation, which the server must
;; respect.

(require 'cl-lib)
(require 'subr-x)

;; What an interactive Emacs does before the init file and batch Emacs
;; does not: activate the installed packages (Debian's site-start lists
;; /usr/share/emacs/site-lisp/elpa, where elpa-eglot is).
(package-activate-all)

;; The init file: the snippet, as pasted.
(load (getenv "PLUGIN_LSP_INIT") nil nil t)

(setq eglot-sync-connect 10
      eglot-autoshutdown nil
      eglot-confirm-server-initiated-edits nil)

(defvar pl-dir (file-name-as-directory (expand-file-name (getenv "PLUGIN_DIR"))))
(defvar pl-results (getenv "RESULTS"))
(defvar pl-failed nil)
(defvar pl-published (make-hash-table :test #'equal) "URI → diagnostics vector.")

(defun emit (line)
  (with-temp-buffer
    (insert line "\n")
    (append-to-file (point-min) (point-max) pl-results)))

(defmacro step (name &rest body)
  (declare (indent 1))
  `(if pl-failed
       (emit (format "skip %s (an earlier step failed)" ,name))
     (condition-case err
         (progn ,@body (emit (concat "ok " ,name)))
       (error
        (if (and (stringp (cadr err)) (string-prefix-p "SKIP: " (cadr err)))
            (emit (format "skip %s: %s" ,name (substring (cadr err) 6)))
          (setq pl-failed t)
          (emit (format "FAIL %s: %S" ,name err)))))))

(defun check (ok fmt &rest args)
  (unless ok (error "%s" (apply #'format fmt args))))

(defun wait-for (what pred &optional secs)
  (let ((deadline (+ (float-time) (or secs 20))))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (check (funcall pred) "timed out waiting for %s" what)))

;; Record what is published, before eglot hands it to Flymake (once the
;; snippet's hook has loaded eglot).
(with-eval-after-load 'eglot
  (cl-defmethod eglot-handle-notification :before
    (_server (_method (eql textDocument/publishDiagnostics)) &key uri diagnostics &allow-other-keys)
    (puthash uri diagnostics pl-published)))

(defvar pl-manifest (concat pl-dir "plugin.json"))
(defvar pl-page (concat pl-dir "code/lookup-book.ts"))
(defun uri-of (path) (eglot--path-to-uri path))

(defun codes (path)
  "The diagnostics published for PATH, as an alist code → diagnostic."
  (cl-loop for d across (or (gethash (uri-of path) pl-published) [])
           collect (cons (plist-get d :code) d)))

(defun server () (with-current-buffer (find-file-noselect pl-manifest) (eglot--current-server-or-lose)))

(defun didchange (buf)
  "Send didChange for BUF now (what eglot's idle timer would do)."
  (with-current-buffer buf (eglot--signal-textDocument/didChange)))

(defun replace-in (buf from to)
  (with-current-buffer buf
    (goto-char (point-min))
    (check (search-forward from nil t) "%S not in %s" from (buffer-name))
    (replace-match to t t))
  (didchange buf))

(defun pos-of (buf needle &optional delta)
  "LSP position (utf-16, as eglot computes it) of NEEDLE in BUF plus DELTA chars."
  (with-current-buffer buf
    (goto-char (point-min))
    (check (search-forward needle nil t) "%S not in %s" needle (buffer-name))
    (eglot--pos-to-lsp-position (+ (match-beginning 0) (or delta 0)))))

(defun req (method params &optional timeout)
  (jsonrpc-request (server) method params :timeout (or timeout 20)))

(defvar mbuf nil)
(defvar pbuf nil)
(defvar page-diag nil)

(defun visit (path)
  "Open PATH as `C-x C-f' does, then what the command loop runs after it."
  (let ((buf (find-file-noselect path)))
    (with-current-buffer buf
      (run-hooks 'post-command-hook))
    buf))

(step "opening plugin.json starts the server (the snippet's hook), rooted at the plugin"
  (setq mbuf (visit pl-manifest))
  (wait-for "the server" (lambda () (with-current-buffer mbuf (eglot-current-server))))
  (let* ((s (server))
         (root (file-name-as-directory (expand-file-name (project-root (eglot--project s))))))
    (check (equal root pl-dir) "the server's project is %S, not the plugin %S" root pl-dir)
    (check (equal (process-command (jsonrpc--process s)) '("plugin-lsp" "serve"))
           "the server runs %S" (process-command (jsonrpc--process s)))
    (check (equal (eglot-initialization-options s) '(:providers "fake" :timeout "30s"))
           "initializationOptions %S" (eglot-initialization-options s))
    (let ((caps (eglot--capabilities s)))
      ;; codeLensProvider is {}, which eglot reads as nil: ask whether it is there
      (check (and (plist-get caps :hoverProvider) (plist-get caps :completionProvider) (plist-member caps :codeLensProvider))
             "capabilities %S" caps)
      (check (null (plist-get caps :diagnosticProvider)) "pull diagnostics offered to a push client"))))

(step "diagnostics on open: plugin.json is clean"
  (wait-for "diagnostics of plugin.json" (lambda () (gethash (uri-of pl-manifest) pl-published)))
  (check (null (codes pl-manifest)) "plugin.json: %S" (codes pl-manifest)))

(step "a page (.ts) opened: a major mode, the same server, its diagnostics clean"
  (setq pbuf (visit pl-page))
  (with-current-buffer pbuf
    (check (not (eq major-mode 'fundamental-mode)) "the page opened in fundamental-mode")
    (check (eq (eglot-current-server) (server)) "the page is not managed by the plugin's server (%S)" (eglot-current-server)))
  (wait-for "diagnostics of the page" (lambda () (gethash (uri-of pl-page) pl-published)))
  (check (null (codes pl-page)) "page: %S" (codes pl-page)))

(step "M-x plugin-lsp-run-tool in plugin.json: the tools offered, the run record shown"
  (let (offered)
    (with-current-buffer mbuf
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest _)
                   (setq offered (mapcar #'car collection))
                   (car (cl-remove-if-not (lambda (c) (string-match-p "lookupBook" c)) offered)))))
        (call-interactively #'plugin-lsp-run-tool)))
    (check (member "▶ Run lookupBook" offered) "offered %S" offered)
    ;; the 3 function tools and the 2 native tools of plugin.json
    (check (= (length offered) 5) "want the 5 tools of plugin.json, offered %S" offered)
    (check (member "▶ Run tg.sendMessage" offered) "offered %S" offered))
  (let ((buf (get-buffer "*plugin-lsp run*")))
    (check buf "no *plugin-lsp run* buffer")
    (let ((rec (with-current-buffer buf
                 (goto-char (point-min))
                 (json-parse-buffer :object-type 'plist :false-object :false))))
      (check (eq (plist-get rec :ok) t) "run %S" rec)
      (check (equal (plist-get (plist-get rec :result) :value) "The Hobbit") "result %S" (plist-get rec :result))
      (emit (format "# run record: ok %S, result %S, %d fetch(es)" (plist-get rec :ok)
                    (plist-get (plist-get rec :result) :value) (length (plist-get rec :fetches)))))))

(step "an edit in the page, and the updated diagnostics"
  (replace-in pbuf "const API = \"https://api.openlibrary.org\";" "const API = \"https://books.example.org\";")
  (wait-for "fetch-undeclared-domain" (lambda () (assoc "fetch-undeclared-domain" (codes pl-page))))
  (setq page-diag (cdr (assoc "fetch-undeclared-domain" (codes pl-page))))
  (let ((msg (plist-get page-diag :message)))
    (check (string-match-p "books\\.example\\.org" msg) "message %S" msg)
    ;; eglot declares no relatedInformation: the server says where in the message
    (check (null (plist-get page-diag :relatedInformation)) "relatedInformation sent: %S" page-diag)
    (check (string-match-p "plugin\\.json:[0-9]+:[0-9]+" msg) "the message does not say where: %S" msg))
  (check (equal (plist-get (plist-get (plist-get page-diag :range) :start) :line)
                (plist-get (pos-of pbuf "http.fetch") :line))
         "the diagnostic is not on the call: %S" page-diag))

(step "M-x eglot-code-actions on the call: the quick fix edits plugin.json and the diagnostic goes away"
  (let (offered)
    (with-current-buffer pbuf
      (goto-char (point-min))
      (check (search-forward "http.fetch" nil t) "no http.fetch in the page")
      (goto-char (match-beginning 0))
      ;; invoked from the keyboard (a menu event would pop a menu up)
      (let ((last-nonmenu-event ?\r))
        (cl-letf (((symbol-function 'completing-read)
                   (lambda (_prompt collection &rest _)
                     (setq offered (mapcar #'car collection))
                     (cl-find-if (lambda (c) (string-match-p "books\\.example\\.org" c)) offered))))
          (call-interactively #'eglot-code-actions))))
    (check (cl-some (lambda (c) (string-match-p "books\\.example\\.org" c)) offered) "no add-domain fix in %S" offered))
  (didchange mbuf)
  (check (with-current-buffer mbuf (save-excursion (goto-char (point-min)) (search-forward "\"books.example.org\"" nil t)))
         "plugin.json was not edited")
  (wait-for "the diagnostic to go" (lambda () (not (assoc "fetch-undeclared-domain" (codes pl-page)))))
  ;; back to the real API for the run below
  (replace-in pbuf "const API = \"https://books.example.org\";" "const API = \"https://api.openlibrary.org\";"))

(step "hover: plain text (no markdown-mode), the credential redacted"
  (let* ((h (req :textDocument/hover (list :textDocument (list :uri (uri-of pl-manifest))
                                           :position (pos-of mbuf "\"openlibrary_key\"" 3))))
         (c (plist-get h :contents))
         (v (plist-get c :value)))
    (check (equal (plist-get c :kind) "plaintext") "hover kind %S" (plist-get c :kind))
    (check (string-match-p (regexp-quote "Authorization: Bearer ••••(openlibrary_key)") v) "hover %S" v)
    (check (not (string-match-p "\\*\\*\\|`" v)) "markdown marks in a plain-text hover: %S" v)
    (check (not (string-match-p "dev-ol-4f9c2e7a1b" v)) "the secret leaked")))

(step "completion of host methods"
  (replace-in mbuf "\"collections.put\"]" "\"collections.put\", \"\"]")
  (let* ((res (req :textDocument/completion
                   (list :textDocument (list :uri (uri-of pl-manifest))
                         :position (pos-of mbuf "\"collections.put\", \"" (length "\"collections.put\", \"")))))
         (items (if (vectorp res) res (plist-get res :items)))
         (labels (mapcar (lambda (it) (plist-get it :label)) items)))
    (check (equal labels '("collections.delete" "collections.query")) "labels %S" labels)
    (dolist (it (append items nil))
      (let ((doc (plist-get it :documentation)))
        (check (or (null doc) (not (equal (plist-get doc :kind) "markdown")))
               "markdown documentation for a client that did not ask for it: %S" it)))))

(step "shutdown and exit"
  ;; `eglot-shutdown' sends shutdown and exit, then deletes the process at
  ;; once (jsonrpc-shutdown), so the exit status would be SIGKILL's: send
  ;; the two messages as eglot does and let the server exit by itself.
  (let* ((s (server))
         (proc (jsonrpc--process s)))
    (setf (eglot--shutdown-requested s) t)
    (check (null (req :shutdown nil)) "shutdown answered with a result")
    (jsonrpc-notify s :exit nil)
    (wait-for "the server to exit" (lambda () (not (process-live-p proc))))
    (check (eq (process-exit-status proc) 0) "exit status %S" (process-exit-status proc))))

;; Exploration (issue 29): a second plugin, EXPLORE_DIR (a copy of
;; internal/lsp/e2e/testdata/explored), whose page fetches
;; status.example.net written out (static analysis reports it) and
;; mirror.example.org from a Map registry through an injected function
;; (only exploration, which runs the tool in the sandbox, reaches it).
;; Visited as the reader visits a plugin: the snippet starts its own server.
(defvar ex-dir (and (getenv "EXPLORE_DIR") (file-name-as-directory (expand-file-name (getenv "EXPLORE_DIR")))))
(defvar ex-manifest (and ex-dir (concat ex-dir "plugin.json")))
(defvar ex-page (and ex-dir (concat ex-dir "code/mirror.ts")))
;; (eglot declares no relatedInformation: the server adds it to the message
;; on a line of its own)
(defvar ex-explored "\\`mirror\\.example\\.org is not in capabilities\\.fetch: .*(exploring tool mirror, reached with input {[^}\n]*})$")
(defvar ex-static "\\`status\\.example\\.net is not in capabilities\\.fetch: the broker refuses this request$")
(defvar ex-history nil "Every publish of the explored plugin's page, newest first: its messages.")
(defvar ex-mbuf nil)
(defvar ex-pbuf nil)
(defvar ex-diag nil)

(with-eval-after-load 'eglot
  (cl-defmethod eglot-handle-notification :after
    (_server (_method (eql textDocument/publishDiagnostics)) &key uri diagnostics &allow-other-keys)
    (when (and ex-page (equal uri (uri-of ex-page)))
      (push (mapcar (lambda (d) (plist-get d :message)) diagnostics) ex-history))))

(defun ex-count (msgs re)
  (cl-count-if (lambda (m) (string-match-p re m)) msgs))

(defun ex-last () (car ex-history))

(step "exploration: the static diagnostics first, then the explored one"
  (unless ex-dir (error "SKIP: EXPLORE_DIR is not set"))
  (setq ex-mbuf (visit ex-manifest))
  (setq ex-pbuf (visit ex-page))
  (wait-for "the explored plugin's server" (lambda () (with-current-buffer ex-pbuf (eglot-current-server))))
  (with-current-buffer ex-pbuf
    (check (equal (file-name-as-directory (expand-file-name (project-root (eglot--project (eglot-current-server))))) ex-dir)
           "the page's server is not rooted at the explored plugin"))
  (condition-case e (wait-for "the explored diagnostic" (lambda () (> (ex-count (ex-last) ex-explored) 0)) 60)
    (error (error "%s; the page's publishes: %S; last: %S" (cadr e) ex-history (gethash (uri-of ex-page) pl-published))))
  (let* ((pubs (reverse ex-history))
         (first (cl-position-if (lambda (m) (> (ex-count m ex-static) 0)) pubs))
         (first-explored (cl-position-if (lambda (m) (> (ex-count m ex-explored) 0)) pubs)))
    (check (and first (= (ex-count (nth first pubs) ex-explored) 0))
           "the first publish with the static diagnostic has no explored one: %S" pubs)
    (check (and first-explored (> first-explored first)) "the explored diagnostic came after the static ones: %S" pubs))
  ;; replaced, not appended: each once
  (check (and (= (ex-count (ex-last) ex-static) 1) (= (ex-count (ex-last) ex-explored) 1)) "published %S" (ex-last))
  (setq ex-diag (cl-find-if (lambda (d) (string-match-p ex-explored (plist-get d :message)))
                            (gethash (uri-of ex-page) pl-published)))
  (check (equal (plist-get ex-diag :code) "fetch-undeclared-domain") "diagnostic %S" ex-diag)
  (check (equal (plist-get (plist-get (plist-get ex-diag :range) :start) :line)
                (plist-get (pos-of ex-pbuf "return get(url);") :line))
         "the explored diagnostic is not at the injected function's call: %S" ex-diag))

(step "exploration: M-x eglot-code-actions on it adds the domain and it clears"
  (let (offered)
    (with-current-buffer ex-pbuf
      (goto-char (point-min))
      (check (search-forward "return get(url);" nil t) "no injected call in the page")
      (goto-char (match-beginning 0))
      (let ((last-nonmenu-event ?\r))
        (cl-letf (((symbol-function 'completing-read)
                   (lambda (_prompt collection &rest _)
                     (setq offered (mapcar #'car collection))
                     (cl-find "Add \"mirror.example.org\" to capabilities.fetch" offered :test #'equal))))
          (call-interactively #'eglot-code-actions))))
    (check (member "Add \"mirror.example.org\" to capabilities.fetch" offered) "no add-domain fix in %S" offered))
  (didchange ex-mbuf)
  (check (with-current-buffer ex-mbuf (save-excursion (goto-char (point-min)) (search-forward "\"mirror.example.org\"" nil t)))
         "plugin.json was not edited")
  (wait-for "the explored diagnostic to clear" (lambda () (= (ex-count (ex-last) ex-explored) 0)))
  (check (= (ex-count (ex-last) ex-static) 1) "the static diagnostic stays: %S" (ex-last)))

(emit "DONE")
(kill-emacs 0)
