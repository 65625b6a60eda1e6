;;; eglot-test.el --- drive the published Eglot snippet against rephrase-ls  -*- lexical-binding: t -*-

;; Run by tests/e2e/test_emacs.py after loading the snippet from docs/editors.md:
;;   emacs --batch -Q -l snippet.el -l eglot-test.el
;; Environment: REPHRASE_TEST_DOC (the document), REPHRASE_TEST_EXPECT (a JSON file),
;; REPHRASE_TEST_SERVER_DIR (put first on PATH so "rephrase-ls" is the venv's).
;; Every wait has a deadline; a failure exits with status 1.

(require 'cl-lib)
(require 'json)

(defvar rephrase-test-wait 30 "Seconds any wait may take.")

(defun rephrase-test-fail (fmt &rest args)
  (princ (concat "FAIL: " (apply #'format fmt args) "\n") #'external-debugging-output)
  (kill-emacs 1))

(defun rephrase-test-wait-for (what predicate)
  (let ((deadline (+ (float-time) rephrase-test-wait)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline)
        (rephrase-test-fail "timed out waiting for %s" what))
      (accept-process-output nil 0.05))))

(defun rephrase-test-equal (actual expected what)
  (unless (equal actual expected)
    (rephrase-test-fail "%s:\n  expected %S\n  actual   %S" what expected actual)))

(defun rephrase-test-read-file (path)
  (when (file-exists-p path)
    (with-temp-buffer
      (insert-file-contents path)
      (buffer-string))))

(let* ((debug-on-error nil)
       (expect (json-parse-string
                (with-temp-buffer
                  (insert-file-contents (getenv "REPHRASE_TEST_EXPECT"))
                  (buffer-string))
                :object-type 'plist))
       (doc (getenv "REPHRASE_TEST_DOC"))
       (toml (expand-file-name ".rephrase.toml" (file-name-directory doc))))
  (setenv "PATH" (concat (getenv "REPHRASE_TEST_SERVER_DIR") path-separator (getenv "PATH")))
  (setq exec-path (cons (getenv "REPHRASE_TEST_SERVER_DIR") exec-path))
  (condition-case err
      (progn
        (find-file doc)
        (text-mode)
        ;; What eglot-ensure does after the command loop; in batch mode, start it directly.
        (apply #'eglot (eglot--guess-contact))
        (rephrase-test-wait-for "the server" (lambda () (eglot-current-server)))
        (rephrase-test-equal (buffer-string) (plist-get expect :original) "buffer before")

        ;; Improve on the region of the first paragraph: resolved lazily and applied.
        (goto-char (point-min))
        (forward-line (plist-get expect :paragraph_line))
        (let ((beg (line-beginning-position)) (end (line-end-position)))
          (rephrase-ls-improve beg end))
        (rephrase-test-wait-for "the improvement"
                                (lambda () (not (equal (buffer-string) (plist-get expect :original)))))
        (rephrase-test-equal (buffer-string) (plist-get expect :improved_first) "buffer after Improve")

        ;; Settings reach the server through workspace/configuration.
        (setq-default eglot-workspace-configuration '(:rephrase (:writingStyle "casual")))
        (eglot-signal-didChangeConfiguration (eglot-current-server))
        (let ((info (rephrase-ls--command "rephrase.listStyles" (rephrase-ls--uri))))
          (rephrase-test-equal (plist-get (plist-get info :current) :writingStyle) "casual"
                               "writing style from eglot-workspace-configuration"))
        (setq-default eglot-workspace-configuration '(:rephrase (:englishVariant "en-US")))
        (eglot-signal-didChangeConfiguration (eglot-current-server))

        ;; The style picker (completing-read stubbed) writes .rephrase.toml.
        (cl-letf (((symbol-function 'completing-read)
                   (lambda (_prompt collection &rest _)
                     (unless (member "business" collection)
                       (rephrase-test-fail "styles offered: %S" collection))
                     "business")))
          (rephrase-ls-choose-style))
        (rephrase-test-wait-for ".rephrase.toml with the style"
                                (lambda () (string-match-p "writingStyle *= *\"business\""
                                                           (or (rephrase-test-read-file toml) ""))))
        ;; The tone replaces it; Eglot asks before editing a file that is not open: say yes.
        (cl-letf (((symbol-function 'completing-read) (lambda (&rest _) "friendly"))
                  ((symbol-function 'y-or-n-p) (lambda (&rest _) t)))
          (rephrase-ls-choose-tone))
        (rephrase-test-wait-for ".rephrase.toml with the tone"
                                (lambda ()
                                  (let ((text (or (rephrase-test-read-file toml) "")))
                                    (and (string-match-p "tone *= *\"friendly\"" text)
                                         (not (string-match-p "writingStyle" text))))))
        ;; The language, then back to detection (null).
        (cl-letf (((symbol-function 'y-or-n-p) (lambda (&rest _) t)))
          (rephrase-ls-set-language "en-GB"))
        (rephrase-test-wait-for ".rephrase.toml with the language"
                                (lambda () (string-match-p "language *= *\"en-GB\""
                                                           (or (rephrase-test-read-file toml) ""))))
        (cl-letf (((symbol-function 'y-or-n-p) (lambda (&rest _) t)))
          (rephrase-ls-set-language ""))
        (rephrase-test-wait-for ".rephrase.toml without the language"
                                (lambda () (not (string-match-p "language"
                                                                (or (rephrase-test-read-file toml) "")))))
        (rephrase-ls-usage)
        ;; Usage names the offline backend.
        (let ((usage (rephrase-ls--command "rephrase.usage" (rephrase-ls--uri))))
          (unless (string-match-p "offline" (format "%s" (plist-get usage :backend)))
            (rephrase-test-fail "usage backend: %S" usage)))
        (eglot-shutdown (eglot-current-server))
        (princ "PASS\n")
        (kill-emacs 0))
    (error (rephrase-test-fail "%s" (error-message-string err)))))
