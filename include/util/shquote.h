/* shquote.h — the one quoting rule for text that goes into a generated bash script
 * (`plan -o script`): nothing taken from a cluster or a kubeconfig may appear in the script
 * outside a quoted word, a comment that cannot end early, or a heredoc whose terminator does
 * not occur in its body.
 *
 *  word     shquote_word: a bash word that expands to exactly the given bytes.  Printable ASCII
 *           (0x20-0x7e) but ' $ ` and \ goes inside '...'; a single quote is \'; every
 *           other byte ($ ` \, controls, DEL, bytes >= 0x80) is $'\xHH'.  The word is one line of
 *           printable ASCII, so a reviewer reading the script with `cat` sees what runs.  ""
 *           is ''.  (A C string holds no NUL; a NUL in the input ended the string earlier.)
 *  comment  shquote_comment: text for after a '#': printable ASCII and well-formed UTF-8 of
 *           printable characters as they are; control bytes (CR and LF among them), DEL, C1
 *           controls, the bidirectional-text controls and malformed UTF-8 as \xHH per byte,
 *           so a comment never ends its line and never hides or reorders what follows.
 *  heredoc  shquote_heredoc_delim: a terminator for `<<'T'` that is no line of the body (base,
 *           else base_2, base_3 ...), so the body ends where the script says it does.
 * Ownership: the Strbuf is the caller's; shquote_heredoc_delim returns a string the caller frees.
 */
#ifndef KGPU_SHQUOTE_H
#define KGPU_SHQUOTE_H
#include <stddef.h>
#include "util/util.h"

void shquote_word(Strbuf *sb, const char *s);
void shquote_word_n(Strbuf *sb, const char *s, size_t n);
void shquote_comment(Strbuf *sb, const char *s);
char *shquote_heredoc_delim(const char *body, const char *base);
#endif
