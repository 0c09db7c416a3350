"""The YAML subset LLVM writes for AMDGPU metadata (`.amdgpu_metadata` blocks, readelf --notes).

Supported: one document (optional `---` / `...` markers), block mappings, block sequences (items
may start a mapping on the `- ` line), plain, 'single' and "double" quoted scalars, flow
sequences/mappings of scalars (`[1, 2]`, `{ a: 1, b: x }`, no nesting or commas inside them), and `#` comments. Plain scalars are typed like
LLVM's msgpack YAML reader: true/false -> bool, integers (decimal, 0x, 0o, 0b) -> int, decimal
floats -> float, ~/null -> None, anything else -> str. Anchors, tags, multi-line scalars and
multiple documents are not supported and are reported with their line.
"""
import re


class YAMLError(ValueError):
    """A YAML problem at `line` (1-based within the parsed text) and `column`."""

    def __init__(self, reason, line, column=1):
        self.reason, self.line, self.column = reason, line, column
        super().__init__(f"line {line}:{column}: {reason}")


_INT = re.compile(r"[-+]?(0x[0-9a-fA-F]+|0o[0-7]+|0b[01]+|[0-9]+)$")
_FLOAT = re.compile(r"[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$|[-+]?[0-9]+[eE][-+]?[0-9]+$")


def parse_yaml(text):
    """Parse `text` into Python objects (dict/list/scalars)."""
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        if "\t" in raw[:len(raw) - len(raw.lstrip())]:
            raise YAMLError("tab in indentation", number)
        content = _strip_comment(raw, number).rstrip()
        stripped = content.strip()
        if not stripped:
            continue
        if stripped in ("---", "...") and not content[0].isspace():
            if stripped == "---" and lines:
                raise YAMLError("only one YAML document is supported", number)
            continue
        if stripped[0] in "&*!|>":
            raise YAMLError(f"unsupported YAML construct {stripped[0]!r}", number,
                            len(content) - len(content.lstrip()) + 1)
        lines.append([number, len(content) - len(content.lstrip()), stripped])
    if not lines:
        return None
    parser = _Parser(lines)
    value = parser.block(0, lines[0][1])
    if parser.pos < len(lines):
        number, indent, _ = lines[parser.pos]
        raise YAMLError("unexpected indentation", number, indent + 1)
    return value


def _strip_comment(line, number):
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"" and (i == 0 or line[i - 1] in " \t:-[{,"):
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


class _Parser:
    def __init__(self, lines):
        self.lines, self.pos = lines, 0

    def block(self, start, indent):
        number, col, text = self.lines[self.pos]
        if col != indent:
            raise YAMLError("unexpected indentation", number, col + 1)
        if text == "-" or text.startswith("- "):
            return self.sequence(indent)
        return self.mapping(indent)

    def sequence(self, indent):
        items = []
        while self.pos < len(self.lines):
            number, col, text = self.lines[self.pos]
            if col < indent:
                break
            if col > indent:
                raise YAMLError("unexpected indentation", number, col + 1)
            if not (text == "-" or text.startswith("- ")):
                break
            rest = text[1:].lstrip()
            if not rest:
                self.pos += 1
                items.append(self.nested(indent, number))
            elif _split_key(rest, number, col) is not None:
                # "- key: value" opens a mapping whose keys sit at the column of `key`.
                self.lines[self.pos] = [number, col + len(text) - len(rest), rest]
                items.append(self.mapping(col + len(text) - len(rest)))
            else:
                self.pos += 1
                items.append(_scalar(rest, number, col + len(text) - len(rest) + 1))
        return items

    def mapping(self, indent):
        result = {}
        while self.pos < len(self.lines):
            number, col, text = self.lines[self.pos]
            if col < indent:
                break
            if col > indent:
                raise YAMLError("unexpected indentation", number, col + 1)
            if text == "-" or text.startswith("- "):
                break
            split = _split_key(text, number, col)
            if split is None:
                raise YAMLError(f"expected 'key: value', found {text!r}", number, col + 1)
            key, rest, rest_col = split
            if key in result:
                raise YAMLError(f"duplicate key {key!r}", number, col + 1)
            self.pos += 1
            if rest:
                result[key] = _scalar(rest, number, rest_col)
            else:
                result[key] = self.nested(indent, number, allow_same_indent_sequence=True)
        return result

    def nested(self, indent, number, allow_same_indent_sequence=False):
        """The block under a `key:` or `-` line, or None when there is none."""
        if self.pos >= len(self.lines):
            return None
        _, col, text = self.lines[self.pos]
        is_seq = text == "-" or text.startswith("- ")
        if col > indent or (allow_same_indent_sequence and col == indent and is_seq):
            return self.block(self.pos, col)
        return None


def _split_key(text, number, col):
    """(key, rest, rest_column) for 'key: rest' / 'key:', else None."""
    if text[0] in "'\"":
        end = _closing_quote(text, number, col)
        key = _scalar(text[:end + 1], number, col + 1)
        after = text[end + 1:]
        if not (after == ":" or after.startswith(": ")):
            return None
        rest = after[1:].strip()
        return str(key), rest, col + len(text) - len(rest) + 1
    if text[0] in "[{":
        return None
    match = re.match(r"([^:]*?):(\s+|$)", text)
    if match is None:
        return None
    key = match.group(1)
    rest = text[match.end():]
    return key, rest, col + match.end() + 1


def _closing_quote(text, number, col):
    quote = text[0]
    i = 1
    while i < len(text):
        if text[i] == quote:
            if quote == "'" and text[i + 1:i + 2] == "'":
                i += 2
                continue
            return i
        if quote == '"' and text[i] == "\\":
            i += 1
        i += 1
    raise YAMLError("unterminated quoted string", number, col + 1)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "/": "/"}


def _scalar(text, number, column):
    text = text.strip()
    if text[0] in "'\"":
        end = _closing_quote(text, number, column - 1)
        if text[end + 1:].strip():
            raise YAMLError(f"text after quoted string: {text[end + 1:].strip()!r}", number, column + end + 1)
        body = text[1:end]
        if text[0] == "'":
            return body.replace("''", "'")
        return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)
    if text[0] == "[":
        if not text.endswith("]"):
            raise YAMLError("unterminated flow sequence", number, column)
        inner = text[1:-1].strip()
        return [_scalar(item, number, column) for item in inner.split(",")] if inner else []
    if text[0] == "{":
        if not text.endswith("}"):
            raise YAMLError("unterminated flow mapping", number, column)
        inner = text[1:-1].strip()
        result = {}
        for item in inner.split(",") if inner else []:
            split = _split_key(item.strip(), number, column) if item.strip() else None
            if split is None or not split[1]:
                raise YAMLError(f"expected 'key: value' in flow mapping, found {item.strip()!r}",
                                number, column)
            if split[0] in result:
                raise YAMLError(f"duplicate key {split[0]!r}", number, column)
            result[split[0]] = _scalar(split[1], number, column)
        return result
    if text[0] in "&*!|>%@`":
        raise YAMLError(f"unsupported YAML construct {text[0]!r} (anchors, aliases, tags and block "
                        f"scalars are not part of the metadata subset)", number, column)
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if text in ("~", "null", "Null", "NULL"):
        return None
    if _INT.match(text):
        return int(text, 0) if not re.match(r"[-+]?0[0-9]", text) else int(text, 10)
    if _FLOAT.match(text):
        return float(text)
    return text
