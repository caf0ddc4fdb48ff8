"""One inbound email (a reply to a turn email) as a clean, normalised record.

Quoted text, reply headers and signatures are found by mail-parser-reply: it is maintained,
knows the "On ... wrote:" / "From: ... Sent:" headers and common sign-offs of many languages
(German included), and splits a mail into its replies rather than cutting at the first quote,
which is what lets us keep text written below a quote. talon (unmaintained since 2017) and
email-reply-parser (English only) were the alternatives; quotequail keeps the attribution line
and the signature in the new text. HTML-only mail loses its quoted blocks (gmail_quote,
blockquote type=cite, moz-cite-prefix, divRplyFwdMsg) here, then html2text makes it text.

Pure: no I/O. Nothing here raises on a malformed message; what cannot be read is "".
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from email import message_from_bytes, message_from_string
from email.header import decode_header
from email.message import Message
from email.utils import getaddresses
from html.parser import HTMLParser

import html2text
from mailparser_reply.constants import MAIL_LANGUAGES
from mailparser_reply.parser import EmailMessage

REPLY_MARKER = "##- Please type your reply above this line -##"

MAX_TEXT = 64 * 1024  # characters of a body we read: a huge mail costs no more than this
MAX_HTML = 128 * 1024  # characters of HTML we convert (markup is bulky; html2text: ~1 s)
_LONG_LINE = 400  # characters; longer lines are hidden from the reply parser (see _new_text)
MAX_RAW = 25 * 1024 * 1024  # bytes of a raw message we parse (SendGrid takes up to 30 MB)

# Languages whose reply headers and sign-offs we look for. Polish (a single "Od:" line counts
# as a header) and the Scandinavian sign-off lists ("Tak", "/word") cut too much of a short
# reply like ours, so they are left out.
REPLY_LANGUAGES = ("en", "de", "fr", "es", "it", "nl")

# Phone and webmail sign-offs the library does not know (it has "Sent from my" only).
_SENT_FROM = re.compile(
    r"^(?:von meinem .{1,60} gesendet|gesendet von .{1,60}|sent from .{1,60}"
    r"|get outlook for .{1,60}|envoy[ée] de mon .{1,60}|enviado desde mi .{1,60}"
    r"|inviato da(?:l mio)? .{1,60}|verzonden (?:vanaf|met) .{1,60})$",
    re.IGNORECASE | re.MULTILINE,
)
_MARKER_CORE = re.compile(re.escape(REPLY_MARKER.strip("#- ")), re.IGNORECASE)
_QUOTED_LINE = re.compile(r"^\s*>")
_WROTE = [
    re.compile(MAIL_LANGUAGES[lang]["wrote_header"], re.IGNORECASE | re.MULTILINE)
    for lang in REPLY_LANGUAGES
    if "wrote_header" in MAIL_LANGUAGES[lang]
]
_SEPARATOR_LINE = re.compile(r"^[\s*_\-=]*$")  # "* * *" (an <hr>), "____", "-----"
_INVISIBLE = str.maketrans(
    {
        "\xa0": " ",
        "\u200b": None,
        "\u200c": None,
        "\u200d": None,
        "\ufeff": None,
        "\ue000": None,
        "\ue001": None,
    }
)

# A subject that starts like an auto-reply; anchored so "Re: auto: ..." written by a person
# does not count.
_AUTO_SUBJECT = re.compile(
    r"^\s*\[?(?:out of (?:the )?office|automatic reply|auto:|auto[- ]?reply|autoreply"
    r"|abwesenheitsnotiz|automatische antwort)",
    re.IGNORECASE,
)
# Looser: only used together with an X-Autoreply-like header, which alone is too weak
# (Exchange sets X-Auto-Response-Suppress on ordinary mail).
_AUTO_SUBJECT_HINT = re.compile(
    r"auto[- ]?(?:matic )?(?:reply|response|respond|antwort)|out of (?:the )?office|abwesen"
    r"|vacation|urlaub|away from|absence|r[ée]ponse automatique|respuesta autom[áa]tica"
    r"|risposta automatica",
    re.IGNORECASE,
)
_BULK_PRECEDENCE = {"bulk", "auto_reply", "list", "junk"}
_AUTOREPLY_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress")
_DAEMONS = {"mailer-daemon", "postmaster"}


@dataclass(frozen=True)
class InboundMail:
    """What the worker needs of one inbound email; every field is normalised."""

    message_id: str  # without <>; "" when absent
    sender: str  # the From address, lower-cased
    recipients: tuple[str, ...]  # bare addresses: lower-case domain, local part as written
    subject: str  # RFC 2047 decoded
    text: str  # the plain part, else the HTML part as text
    new_text: str  # only what the writer added (no quotes, headers, signatures, our marker)
    automatic: bool  # auto-reply, bounce or bulk: never answer it
    authenticated: bool | None  # SPF or DKIM pass for the From domain; None: not reported
    in_reply_to: str  # without <>; "" when absent


# --- public entry points -------------------------------------------------------------------


def from_raw(raw: bytes, envelope_to: Iterable[str] = ()) -> InboundMail:
    """Parse a raw RFC 5322 message (the SMTP door; SendGrid's raw mode)."""
    try:
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        msg = message_from_bytes(bytes(raw[:MAX_RAW]))
    except Exception:  # noqa: BLE001 - never raise on garbage
        msg = Message()
    plain, html = _safe(lambda: _body_parts(msg), ("", ""))
    return _build(msg, plain, html, _safe(lambda: _envelope_list(envelope_to), []))


def from_sendgrid(fields: Mapping[str, str | bytes]) -> InboundMail:
    """Parse the form fields SendGrid Inbound Parse posts, in parsed or raw mode."""
    try:
        lowered = {str(k).lower(): v for k, v in fields.items()}
    except Exception:  # noqa: BLE001
        lowered = {}
    charsets = _safe(lambda: _json_dict(_field(lowered, "charsets", {})), {})

    def get(name: str) -> str:
        return _safe(lambda: _field(lowered, name, charsets), "")

    envelope = _safe(lambda: _json_dict(get("envelope")), {})
    envelope_to = _safe(lambda: _envelope_list(envelope.get("to") or ()), [])
    reported = "spf" in lowered or "dkim" in lowered

    if "email" in lowered:
        raw = lowered["email"]
        raw_bytes = raw if isinstance(raw, bytes) else str(raw).encode("utf-8", "surrogateescape")
        mail = from_raw(raw_bytes, envelope_to)
        auth = _authenticated(get("spf"), get("dkim"), mail.sender) if reported else None
        return replace(mail, authenticated=auth)

    headers = _safe(lambda: message_from_string(get("headers").strip() + "\n\n"), Message())
    for name in ("From", "To", "Cc", "Subject"):
        value = get(name.lower())
        if value and (name == "Subject" or name not in headers):
            # SendGrid's subject is decoded already, in its charset: better than the header's.
            del headers[name]
            headers[name] = value
    mail = _build(headers, get("text")[:MAX_TEXT], get("html")[:MAX_HTML], envelope_to)
    auth = _authenticated(get("spf"), get("dkim"), mail.sender) if reported else None
    return replace(mail, authenticated=auth)


# --- assembling the record ------------------------------------------------------------------


def _build(msg: Message, plain: str, html: str, envelope_to: list[str]) -> InboundMail:
    sender = _safe(lambda: _sender(msg), "")
    text = _safe(lambda: _readable(plain, html), "")
    return InboundMail(
        message_id=_safe(lambda: _msg_id(_header(msg, "Message-ID")), ""),
        sender=sender,
        recipients=tuple(envelope_to) or _safe(lambda: _header_recipients(msg), ()),
        subject=_safe(lambda: _one_line(_decode_words(_header(msg, "Subject"))), ""),
        text=text,
        new_text=_safe(lambda: _new_text_of(plain, html), ""),
        automatic=_safe(lambda: _is_automatic(msg, sender), False),
        authenticated=None,  # only SendGrid reports it (from_sendgrid)
        in_reply_to=_safe(lambda: _msg_id(_header(msg, "In-Reply-To")), ""),
    )


def _readable(plain: str, html: str) -> str:
    if plain.strip():
        return _tidy(plain)[:MAX_TEXT].strip()
    if html.strip():
        return _tidy(_html_to_text(html))[:MAX_TEXT].strip()
    return ""


def _new_text_of(plain: str, html: str) -> str:
    if plain.strip():
        return _new_text(plain)
    if html.strip():
        return _new_text(_html_to_text(_prune_html(html)))
    return ""


# --- headers --------------------------------------------------------------------------------


def _header(msg: Message, name: str) -> str:
    """The first `name` header as text (8-bit bytes read as UTF-8, else windows-1252)."""
    found = _headers(msg, name)
    return found[0] if found else ""


def _headers(msg: Message, name: str) -> list[str]:
    # raw_items: the values as received; get() would wrap 8-bit ones in Header objects.
    name = name.lower()
    return [_unescape_8bit(str(v)) for k, v in msg.raw_items() if k.lower() == name]


def _unescape_8bit(value: str) -> str:
    # The bytes parser keeps raw 8-bit header bytes as surrogates; give them back as text.
    if not any("\udc80" <= ch <= "\udcff" for ch in value):
        return value
    return _decode_bytes(value.encode("ascii", "surrogateescape"), "utf-8")


def _decode_words(value: str) -> str:
    """RFC 2047: "=?utf-8?q?Dein_Zug?=" -> "Dein Zug"; a bad charset degrades, never raises."""
    value = re.sub(r"\r?\n[ \t]+", " ", value)
    if "=?" not in value:
        return value
    try:
        chunks = decode_header(value)
    except Exception:  # noqa: BLE001
        return value
    return "".join(
        _decode_bytes(chunk, charset) if isinstance(chunk, bytes) else chunk
        for chunk, charset in chunks
    )


def _one_line(value: str) -> str:
    return " ".join(value.split())


def _msg_id(value: str) -> str:
    found = re.search(r"<([^<>]*)>", value)
    return (found.group(1) if found else value.strip().strip("<>")).strip()


def _bare(address: str) -> str:
    """ "Ann <Ann.B@Example.COM>" -> "Ann.B@example.com"; "" if it is no address."""
    found = getaddresses([address])
    address = (found[0][1] if found else "").strip().strip("<>")
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain or any(ch.isspace() for ch in address):
        return ""
    return f"{local}@{domain.lower()}"


def _sender(msg: Message) -> str:
    # getaddresses on the raw value: a decoded name such as "Müller, Jörg" would split at
    # the comma.
    for _name, address in getaddresses(_headers(msg, "From")):
        bare = _bare(address)
        if bare:
            return bare.lower()
    return ""


def _header_recipients(msg: Message) -> tuple[str, ...]:
    values = _headers(msg, "To") + _headers(msg, "Cc") + _headers(msg, "Delivered-To")
    return _unique(_bare(address) for _name, address in getaddresses(values))


def _envelope_list(addresses: Iterable[str] | str) -> list[str]:
    if isinstance(addresses, str):  # one address where a list was expected
        addresses = [addresses]
    return list(_unique(_bare(str(a)) for a in addresses))


def _unique(addresses: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a for a in addresses if a))


def _is_automatic(msg: Message, sender: str) -> bool:
    """RFC 3834 and the habits of Exchange, mailing lists and bounce daemons."""
    auto_submitted = _header(msg, "Auto-Submitted").split(";")[0].strip().lower()
    if auto_submitted and auto_submitted != "no":
        return True
    if _header(msg, "Precedence").strip().lower() in _BULK_PRECEDENCE:
        return True
    subject = _one_line(_decode_words(_header(msg, "Subject")))
    if _AUTO_SUBJECT.match(subject):
        return True
    if any(msg.get(h) is not None for h in _AUTOREPLY_HEADERS) and _AUTO_SUBJECT_HINT.search(
        subject
    ):
        return True
    if any(v.strip() == "<>" for v in _headers(msg, "Return-Path")):
        return True
    if sender.partition("@")[0] in _DAEMONS:
        return True
    return msg.get_content_type() == "multipart/report"


def _authenticated(spf: str, dkim: str, sender: str) -> bool:
    """SendGrid's SPF ("pass") or a DKIM entry "@domain : pass" for the From domain."""
    if spf.strip().lower() == "pass":
        return True
    domain = sender.rpartition("@")[2]
    # dkim looks like "{@example.com : pass, @sendgrid.info : fail}" (or "none").
    return bool(domain) and any(
        signer.lower() == domain and result.lower() == "pass"
        for signer, result in re.findall(r"@([^\s:,{}]+)\s*:\s*([A-Za-z]+)", dkim)
    )


# --- bodies ---------------------------------------------------------------------------------


def _body_parts(msg: Message) -> tuple[str, str]:
    """The first text/plain and text/html parts that are not attachments."""
    plain = html = ""
    for part in _leaves(msg):
        kind = part.get_content_type()
        if kind not in ("text/plain", "text/html"):
            continue
        if (part.get("Content-Disposition") or "").strip().lower().startswith("attachment"):
            continue
        if kind == "text/plain" and not plain:
            plain = _part_text(part, MAX_TEXT)
        elif kind == "text/html" and not html:
            html = _part_text(part, MAX_HTML)
        if plain and html:
            break
    return plain, html


def _leaves(msg: Message) -> Iterator[Message]:
    # Not message/rfc822: a forwarded or bounced mail inside is not what the sender wrote.
    if msg.is_multipart():
        for sub in msg.get_payload() or []:
            if isinstance(sub, Message) and sub.get_content_maintype() != "message":
                yield from _leaves(sub)
    elif msg.get_content_maintype() != "message":
        yield msg


def _part_text(part: Message, limit: int) -> str:
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        return ""
    # A little slack for multi-byte characters; the text is cut to `limit` characters.
    return _decode_bytes(data[: limit * 4], part.get_content_charset())[:limit]


def _decode_bytes(data: bytes, charset: str | None) -> str:
    """Decode with the declared charset; a wrong or unknown one degrades, never raises."""
    name = (charset or "").strip().strip('"').lower()
    try:
        name = codecs.lookup(name).name if name else ""
    except LookupError:
        name = ""
    if name in ("", "ascii"):
        # Undeclared or "us-ascii" with 8-bit bytes in it: most often UTF-8 really.
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            name = "cp1252"
    if name == "iso8859-1":
        # Mail labelled iso-8859-1 is often windows-1252 (curly quotes, the euro sign); for
        # every byte that is not in 0x80-0x9f the two agree.
        name = "cp1252"
    try:
        return data.decode(name, errors="replace")
    except Exception:  # noqa: BLE001 - e.g. a codec that is not a text codec
        return data.decode("utf-8", errors="replace")


def _field(fields: Mapping[str, str | bytes], name: str, charsets: Mapping[str, str]) -> str:
    value = fields.get(name, "")
    if isinstance(value, bytes):
        return _decode_bytes(value, charsets.get(name) if isinstance(charsets, Mapping) else None)
    return str(value)


def _json_dict(value: str | Mapping) -> dict:
    if isinstance(value, Mapping):
        return dict(value)
    found = json.loads(value) if value.strip() else {}
    return found if isinstance(found, dict) else {}


def _tidy(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_INVISIBLE)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(line.rstrip() for line in text.split("\n")))


# --- HTML ------------------------------------------------------------------------------------

_QUOTE_TOKEN = "ravenpostquotedblockq7x"  # stands for a removed quote; becomes a ">" line


def _html_to_text(html: str) -> str:
    converter = html2text.HTML2Text()
    converter.body_width = 0  # no re-wrapping: a move is a line
    converter.ignore_images = True
    converter.ignore_emphasis = True  # "*2 5*" is not a move
    converter.ignore_links = True
    converter.ignore_tables = True
    converter.unicode_snob = True
    text = converter.handle(html[:MAX_HTML])
    # html2text escapes Markdown ("1\. 3 4", "\- e4"); a move must come out as typed.
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!])", r"\1", text)
    return re.sub(rf"^.*{_QUOTE_TOKEN}.*$", ">", text, flags=re.MULTILINE)


class _QuotePruner(HTMLParser):
    """Re-emits HTML without the blocks mail clients quote the previous mail in.

    A removed quote leaves a token (later a ">" line), so an attribution line left before it
    is recognised as one and text written below the quote is kept. Outlook puts the old mail
    after its header block, not inside it, so at that block everything stops.
    """

    _VOID = {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.stack: list[str] = []
        self.skip_depth: int | None = None  # len(stack) where the skipped element opened
        self.done = False

    def _verdict(self, tag: str, attrs: list[tuple[str, str | None]]) -> str:
        a = {k.lower(): (v or "") for k, v in attrs}
        classes = a.get("class", "").lower().split()
        style = a.get("style", "").lower().replace(" ", "")
        if a.get("id", "").lower() in ("divrplyfwdmsg", "appendonsend"):
            return "stop"
        if tag == "div" and "border-top:solid" in style and "padding:3.0pt" in style:
            return "stop"  # Outlook desktop's header block above the old mail
        if any(
            c.startswith("gmail_quote") or c in ("moz-cite-prefix", "yahoo_quoted") for c in classes
        ):
            return "quote"
        if tag == "blockquote" and a.get("type", "").lower() == "cite":
            return "quote"
        if any(c in ("gmail_signature", "moz-signature") for c in classes):
            return "drop"
        return "keep"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        void = tag in self._VOID
        if self.skip_depth is None:
            verdict = self._verdict(tag, attrs)
            if verdict == "stop":
                self.done = True
                return
            if verdict == "quote":
                self.out.append(f"<div>{_QUOTE_TOKEN}</div>")
            if verdict == "keep":
                self.out.append(self.get_starttag_text() or "")
            elif not void:
                self.skip_depth = len(self.stack)
        if not void:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.done and self.skip_depth is None and self._verdict(tag, attrs) == "keep":
            self.out.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if self.done or tag not in self.stack:
            return  # a stray end tag
        while self.stack:  # closes what was left open inside, as browsers do
            open_tag = self.stack.pop()
            if self.skip_depth is None:
                self.out.append(f"</{open_tag}>")
            elif len(self.stack) == self.skip_depth:
                self.skip_depth = None  # the end of the skipped element
            if open_tag == tag:
                return

    def _text(self, raw: str) -> None:
        if not self.done and self.skip_depth is None:
            self.out.append(raw)

    def handle_data(self, data: str) -> None:
        self._text(data)

    def handle_entityref(self, name: str) -> None:
        self._text(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self._text(f"&#{name};")


def _prune_html(html: str) -> str:
    pruner = _QuotePruner()
    pruner.feed(html[:MAX_HTML])
    pruner.close()
    return "".join(pruner.out)


# --- the new text ------------------------------------------------------------------------------


def _new_text(body: str) -> str:
    """What the writer added to `body`: quotes, reply headers, signatures and our mail gone.

    Top-posting is the norm; text written below or between quoted (">") lines is kept too.
    Below an unquoted header block (Outlook's "From: ... Sent:", or an attribution line not
    followed by a quote) everything is the old mail and is dropped.
    """
    lines = _tidy(body[:MAX_TEXT]).split("\n")
    for i, line in enumerate(lines):
        if _MARKER_CORE.search(line):
            if not _QUOTED_LINE.match(line):
                lines = lines[:i]  # our mail, unquoted: all of it is below the marker
            break  # a quoted marker goes with the quoted lines below
    long_lines: list[str] = []
    for i, line in enumerate(lines):
        if len(line) > _LONG_LINE:
            # The library's header patterns take seconds on one long line; no header or
            # sign-off is that long, so it sees a placeholder (quoted if the line is).
            lines[i] = f"{'> ' if _QUOTED_LINE.match(line) else ''}\ue000{len(long_lines)}\ue001"
            long_lines.append(line)
    parsed = EmailMessage(
        "\n".join(lines), languages=list(REPLY_LANGUAGES), keep_hyphen_lists=True
    ).read()
    kept: list[str] = []
    for reply in parsed.replies:
        header = reply.headers
        content = reply.content.replace(header, "", 1) if header else reply.content
        if header and not header.lstrip().startswith(">"):
            attribution = any(w.search(header) for w in _WROTE)
            first = next((ln for ln in content.split("\n") if ln.strip()), "")
            if not attribution or (first and not _QUOTED_LINE.match(first)):
                break
        own = "\n".join(ln for ln in content.split("\n") if not _QUOTED_LINE.match(ln))
        own = _strip_signature(own, parsed)
        if own:
            kept.append(own)
    out = "\n\n".join(kept).split("\n")
    while out and _SEPARATOR_LINE.match(out[-1]):
        out.pop()  # an <hr> or "____" line that stood above the old mail
    text = re.sub(r"\ue000(\d+)\ue001", lambda m: long_lines[int(m.group(1))], "\n".join(out))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _strip_signature(text: str, parsed: EmailMessage) -> str:
    text = text.strip()
    for disclaimer in parsed.DISCLAIMERS_REGEX.findall(text):
        text = text.replace(disclaimer, "")
    found = parsed.SIGNATURE_REGEX.search(text)
    if found:
        text = text[: found.start()]
    found = _SENT_FROM.search(text)
    if found:
        text = text[: found.start()]
    return text.strip()


def _safe(fn, default):  # type: ignore[no-untyped-def]
    """fn(), or `default` if it raises: one unreadable piece must not lose the others."""
    try:
        return fn()
    except Exception:  # noqa: BLE001
        return default
