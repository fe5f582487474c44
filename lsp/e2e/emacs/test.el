;;; test.el --- Emacs 28 + eglot driving `plugin-lsp serve' -*- lexical-binding: t -*-

;; Batch Emacs with Debian's elpa-eglot (1.9) as an author would use it:
;; open the example plugin, read diagnostics, edit a page, apply the quick
;; fix, run a tool, hover, complete, shut down.  Run by lsp/e2e (go test):
;;   emacs --batch -Q -l lsp/e2e/emacs/test.el
;; with PLUGIN_LSP_BIN, PLUGIN_DIR and RESULTS in the environment.  Each
;; step writes "ok <step>", "skip <step>: <why>" or "FAIL <step>: <why>"
;; to RESULTS; the last line is DONE when the script got to the end.
;;
;; Batch Emacs runs no idle timers, and eglot sends didChange from one:
;; after each edit the script sends it itself (`didchange').  Eglot 1.9
;; without markdown-mode declares plain-text hovers and no
;; relatedInformation, which the server must respect.

(require 'cl-lib)
(require 'subr-x)
(package-initialize)
(dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*"))
  (add-to-list 'load-path dir))
(require 'project)
(require 'eglot)

(defvar pl-bin (getenv "PLUGIN_LSP_BIN"))
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

;; Everything under the plugin is one project, so one server.
(add-hook 'project-find-functions
          (lambda (dir)
            (when (string-prefix-p pl-dir (file-name-as-directory (expand-file-name dir)))
              (cons 'transient pl-dir))))
(add-to-list 'auto-mode-alist '("\\.ts\\'" . js-mode))
(add-to-list 'auto-mode-alist '("\\.json\\'" . js-mode))
(setq eglot-sync-connect 10
      eglot-autoshutdown nil
      eglot-confirm-server-initiated-edits nil)

;; Record what is published, before eglot hands it to Flymake.
(cl-defmethod eglot-handle-notification :before
  (_server (_method (eql textDocument/publishDiagnostics)) &key uri diagnostics &allow-other-keys)
  (puthash uri diagnostics pl-published))

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

(step "initialize"
  (setq mbuf (find-file-noselect pl-manifest))
  (with-current-buffer mbuf
    (eglot '(js-mode) (project-current) 'eglot-lsp-server (list pl-bin "serve") "json"))
  (wait-for "the server" (lambda () (with-current-buffer mbuf (eglot-current-server))))
  (let ((caps (eglot--capabilities (server))))
    ;; codeLensProvider is {}, which eglot reads as nil: ask whether it is there
    (check (and (plist-get caps :hoverProvider) (plist-get caps :completionProvider) (plist-member caps :codeLensProvider))
           "capabilities %S" caps)
    (check (null (plist-get caps :diagnosticProvider)) "pull diagnostics offered to a push client")))

(step "diagnostics on open: the example is clean"
  (setq pbuf (find-file-noselect pl-page))
  (with-current-buffer pbuf
    (check (eglot-current-server) "the page is not managed by eglot"))
  (wait-for "diagnostics of plugin.json" (lambda () (gethash (uri-of pl-manifest) pl-published)))
  (wait-for "diagnostics of the page" (lambda () (gethash (uri-of pl-page) pl-published)))
  (check (null (codes pl-manifest)) "plugin.json: %S" (codes pl-manifest))
  (check (null (codes pl-page)) "page: %S" (codes pl-page)))

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

(step "the quick fix edits plugin.json and the diagnostic goes away"
  (let* ((actions (req :textDocument/codeAction
                       (list :textDocument (list :uri (uri-of pl-page))
                             :range (plist-get page-diag :range)
                             :context (list :diagnostics (vector page-diag)))))
         (fix (cl-find-if (lambda (a) (string-match-p "books\\.example\\.org" (plist-get a :title)))
                          actions)))
    (check fix "no add-domain fix in %S" actions)
    (eglot--apply-workspace-edit (plist-get fix :edit))
    (didchange mbuf)
    (check (with-current-buffer mbuf (save-excursion (goto-char (point-min)) (search-forward "\"books.example.org\"" nil t)))
           "plugin.json was not edited")
    (wait-for "the diagnostic to go" (lambda () (not (assoc "fetch-undeclared-domain" (codes pl-page))))))
  ;; back to the real API for the run below
  (replace-in pbuf "const API = \"https://books.example.org\";" "const API = \"https://api.openlibrary.org\";"))

(step "plugin.runTool"
  (let ((res (condition-case err
                 (req :workspace/executeCommand
                      (list :command "plugin.runTool"
                            :arguments (vector (list :uri (uri-of pl-manifest) :tool "lookupBook"
                                                     :input (list :isbn "9780261103344"))))
                      90)
               (jsonrpc-error
                (if (string-match-p "not available in this build" (format "%S" err))
                    (error "SKIP: the sandbox is not in this build")
                  (signal (car err) (cdr err)))))))
    (check (eq (plist-get res :ok) t) "run %S" res)
    (check (equal (plist-get (plist-get res :result) :value) "The Hobbit") "result %S" (plist-get res :result))))

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

(emit "DONE")
(kill-emacs 0)
