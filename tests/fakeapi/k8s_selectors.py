"""Label and field selectors, parsed and matched as kube-apiserver does.

Label selectors follow k8s.io/apimachinery/pkg/labels (selector.go): requirements separated
by commas, operators `=`, `==`, `!=`, `in (a,b)`, `notin (a,b)`, `key` (exists), `!key`
(does not exist), `>` and `<` (integer comparison).  `!=` and `notin` also match objects
that lack the label.

Field selectors follow k8s.io/apimachinery/pkg/fields (selector.go): terms separated by
commas, operators `=`, `==`, `!=`; a backslash escapes `\\`, `,` and `=` inside values.
Which field names a resource supports is decided by the store (FIELD_LABELS), and an
unsupported name fails with `field label not supported: <name>` as in
pkg/apis/core/v1/conversion.go.
"""

import re


class SelectorError(ValueError):
    """A selector that the real server rejects with 400 BadRequest."""


# ----------------------------------------------------------------------------------------
# label selectors

_QUALIFIED_NAME = re.compile(r'^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$')
_DNS1123_SUBDOMAIN = re.compile(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$')
_LABEL_VALUE = re.compile(r'^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$')


def _validate_label_key(key):
    if '/' in key:
        prefix, name = key.split('/', 1)
        if not prefix or len(prefix) > 253 or not _DNS1123_SUBDOMAIN.match(prefix):
            raise SelectorError('unable to parse requirement: <nil>: Invalid value: "%s": '
                                'prefix part must be a valid DNS subdomain' % key)
    else:
        name = key
    if not name or len(name) > 63 or not _QUALIFIED_NAME.match(name):
        raise SelectorError(
            'unable to parse requirement: <nil>: Invalid value: "%s": name part must consist of '
            "alphanumeric characters, '-', '_' or '.', and must start and end with an "
            "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
            "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')" % key)


def _validate_label_value(key, value):
    if len(value) > 63 or not _LABEL_VALUE.match(value):
        raise SelectorError(
            'unable to parse requirement: values[0][%s]: Invalid value: "%s": a valid label must '
            "be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
            "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
            "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
            % (key, value))


_TOKEN_RE = re.compile(r'\s*(==|=|!=|\(|\)|,|!|>|<|[^\s=!(),<>]+)')


def _lex(sel):
    pos, out = 0, []
    while pos < len(sel):
        m = _TOKEN_RE.match(sel, pos)
        if not m:
            if sel[pos:].strip() == '':
                break
            raise SelectorError("unable to parse requirement: found '%s', expected: identifier"
                                % sel[pos:])
        out.append(m.group(1))
        pos = m.end()
    return out


class LabelSelector:
    """Parsed label selector: a list of (key, op, values) requirements (AND)."""

    def __init__(self, text):
        self.text = text or ''
        self.reqs = self._parse(self.text)

    @staticmethod
    def _parse(text):
        toks = _lex(text)
        reqs, i = [], 0

        def peek(k=0):
            return toks[i + k] if i + k < len(toks) else None

        while i < len(toks):
            if toks[i] == '!':
                if peek(1) is None or peek(1) in ('=', '==', '!=', '(', ')', ',', '!'):
                    raise SelectorError("unable to parse requirement: found '%s', expected: identifier"
                                        % (peek(1) or ''))
                key = toks[i + 1]
                _validate_label_key(key)
                reqs.append((key, '!', []))
                i += 2
            else:
                key = toks[i]
                if key in ('=', '==', '!=', '(', ')', ',', '>', '<'):
                    raise SelectorError("unable to parse requirement: found '%s', expected: identifier"
                                        % key)
                _validate_label_key(key)
                i += 1
                op = peek()
                if op is None or op == ',':
                    reqs.append((key, 'exists', []))
                elif op in ('=', '==', '!='):
                    i += 1
                    val = peek()
                    if val is None or val == ',':
                        val = ''
                    elif val in ('(', ')', '=', '==', '!=', '!'):
                        raise SelectorError("unable to parse requirement: found '%s', expected: "
                                            "identifier" % val)
                    else:
                        i += 1
                    _validate_label_value(key, val)
                    reqs.append((key, '!=' if op == '!=' else '=', [val]))
                elif op in ('>', '<'):
                    i += 1
                    val = peek()
                    if val is None or not re.match(r'^-?\d+$', val):
                        raise SelectorError('unable to parse requirement: values[0]: Invalid value: '
                                            '"%s": for \'Gt\', \'Lt\' operators, the value must be an '
                                            'integer' % (val or ''))
                    i += 1
                    reqs.append((key, op, [int(val)]))
                elif op in ('in', 'notin'):
                    i += 1
                    if peek() != '(':
                        raise SelectorError("unable to parse requirement: found '%s', expected: '('"
                                            % (peek() or ''))
                    i += 1
                    vals = []
                    expect_value = True
                    while True:
                        t = peek()
                        if t is None:
                            raise SelectorError("unable to parse requirement: found '', expected: ')'")
                        if t == ')':
                            if expect_value and vals:
                                vals.append('')
                            i += 1
                            break
                        if t == ',':
                            if expect_value:
                                vals.append('')
                            expect_value = True
                            i += 1
                            continue
                        if not expect_value:
                            raise SelectorError("unable to parse requirement: found '%s', expected: "
                                                "',' or ')'" % t)
                        vals.append(t)
                        expect_value = False
                        i += 1
                    if not vals:
                        raise SelectorError('unable to parse requirement: values: Invalid value: '
                                            '[]string{}: for \'in\', \'notin\' operators, values set '
                                            "can't be empty")
                    for v in vals:
                        _validate_label_value(key, v)
                    reqs.append((key, op, vals))
                else:
                    raise SelectorError("unable to parse requirement: found '%s', expected: "
                                        "in, notin, =, ==, !=, gt, lt" % op)
            if i < len(toks):
                if toks[i] != ',':
                    raise SelectorError("found '%s', expected: ',' or 'end of string'" % toks[i])
                i += 1
                if i >= len(toks):
                    raise SelectorError("found '', expected: !, identifier, or 'end of string'")
        return reqs

    def empty(self):
        return not self.reqs

    def matches(self, labels):
        labels = labels or {}
        for key, op, vals in self.reqs:
            present = key in labels
            v = labels.get(key)
            if op == 'exists':
                if not present:
                    return False
            elif op == '!':
                if present:
                    return False
            elif op == '=' or op == 'in':
                if not present or v not in vals:
                    return False
            elif op == '!=' or op == 'notin':
                if present and v in vals:
                    return False
            elif op in ('>', '<'):
                if not present:
                    return False
                try:
                    n = int(v)
                except ValueError:
                    return False
                if op == '>' and not n > vals[0]:
                    return False
                if op == '<' and not n < vals[0]:
                    return False
        return True


# ----------------------------------------------------------------------------------------
# field selectors

def _split_unescaped(s, sep):
    parts, cur, i = [], [], 0
    while i < len(s):
        c = s[i]
        if c == '\\' and i + 1 < len(s):
            cur.append(s[i:i + 2])
            i += 2
            continue
        if c == sep:
            parts.append(''.join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append(''.join(cur))
    return parts


def _unescape_value(v):
    out, i = [], 0
    while i < len(v):
        if v[i] == '\\':
            if i + 1 >= len(v):
                raise SelectorError('invalid field selector: %s' % 'unterminated escape sequence')
            nxt = v[i + 1]
            if nxt not in '\\,=':
                raise SelectorError('invalid field selector: invalid escape sequence: %s'
                                    % v[i:i + 2])
            out.append(nxt)
            i += 2
        else:
            out.append(v[i])
            i += 1
    return ''.join(out)


class FieldSelector:
    """Parsed field selector: a list of (field, op, value) terms, op in '=', '!='."""

    def __init__(self, text):
        self.text = text or ''
        self.terms = []
        if not self.text:
            return
        for part in _split_unescaped(self.text, ','):
            if part == '':
                continue
            m = None
            # operator search honours escapes: find the first unescaped operator
            i = 0
            while i < len(part):
                if part[i] == '\\':
                    i += 2
                    continue
                if part.startswith('!=', i):
                    m = (i, '!=', 2)
                    break
                if part.startswith('==', i):
                    m = (i, '=', 2)
                    break
                if part[i] == '=':
                    m = (i, '=', 1)
                    break
                i += 1
            if m is None:
                raise SelectorError("invalid selector: '%s'; can't understand '%s'"
                                    % (self.text, part))
            pos, op, ln = m
            field = part[:pos]
            value = _unescape_value(part[pos + ln:])
            self.terms.append((field, op, value))

    def empty(self):
        return not self.terms

    def check_supported(self, supported):
        for field, _, _ in self.terms:
            if field not in supported:
                raise SelectorError('field label not supported: %s' % field)

    def matches(self, fields):
        for field, op, value in self.terms:
            have = fields.get(field, '')
            if op == '=' and have != value:
                return False
            if op == '!=' and have == value:
                return False
        return True
