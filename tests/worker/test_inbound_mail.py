"""Play by reply, the parser: one inbound email (SMTP door or SendGrid Inbound Parse) becomes
one InboundMail whose new_text holds only what the player wrote. Samples: tests/inbound_samples.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from worker.inbound_mail import MAX_TEXT, REPLY_MARKER, InboundMail, from_raw, from_sendgrid

SAMPLES = Path(__file__).resolve().parent.parent / "inbound_samples"
NEW_LINES = "2 5\n\nGood luck, Ann!"


def raw(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def mail(name: str) -> InboundMail:
    return from_raw(raw(name))


def variant(name: str, **headers: str) -> bytes:
    """The sample with these headers set (Return_Path -> Return-Path), replacing any there."""
    data = raw(name)
    for field, value in headers.items():
        field = field.replace("_", "-")
        data = re.sub(rb"(?im)^" + field.encode() + rb":.*\n", b"", data)
        data = f"{field}: {value}\n".encode() + data
    return data


def form(name: str, **changes: str | None) -> dict[str, str | bytes]:
    """A SendGrid fixture as the multipart form arrives: each field bytes in its charset."""
    fields = json.loads((SAMPLES / name).read_text(encoding="utf-8"))
    for field, value in changes.items():
        if value is None:
            fields.pop(field, None)
        else:
            fields[field] = value
    charsets = json.loads(fields.get("charsets", "{}"))
    return {k: v.encode(charsets.get(k, "utf-8")) for k, v in fields.items()}


# --- bodies and encodings ------------------------------------------------------------------


def test_plain_text_only_reply_is_read():
    m = mail("plain_text_only.eml")
    assert m.text == "2 5"
    assert m.new_text == "2 5"


def test_html_only_reply_is_converted_to_text():
    m = mail("html_only.eml")
    assert "<" not in m.text and "color: red" not in m.text
    assert m.new_text == "2 5\n\nGood luck, Ann!\n\n1. first\n2. second"


def test_multipart_alternative_reads_the_plain_part():
    m = mail("multipart_alternative.eml")
    assert m.text == "2 5 from the plain part"
    assert m.new_text == "2 5 from the plain part"


def test_multipart_mixed_ignores_the_attachments():
    m = mail("multipart_mixed_attachment.eml")
    assert m.text == "2 5\nNotes attached."
    assert "ATTACHED NOTES" not in m.new_text


def test_quoted_printable_iso_8859_1_german_reply_keeps_its_umlauts():
    m = mail("german_reply_latin1_qp.eml")
    assert m.new_text == "Ich ziehe 2 5. Möge der Bessere gewinnen - äöüß!"


def test_base64_utf8_body_is_decoded():
    m = mail("base64_utf8.eml")
    assert m.new_text == "2 5\n\nViel Glück, Bob — and good luck! 🎲"


def test_windows_1252_body_keeps_curly_quotes_and_the_euro_sign():
    assert mail("windows_1252.eml").text == "2 5 “the safe move” – I bet 5€ on it"


def test_iso_8859_1_8bit_body_is_decoded():
    # Labelled iso-8859-1 but with a windows-1252 apostrophe, as Outlook sends it.
    assert mail("iso_8859_1.eml").text == "2 5, très bien, señor Bob’s mill."


def test_rfc2047_subjects_are_decoded():
    assert mail("german_reply_latin1_qp.eml").subject == "AW: Du bist am Zug: Mühle mit Bob"
    assert mail("base64_utf8.eml").subject == "Re: Dein Zug – Mühle"
    assert mail("iso_8859_1.eml").subject == "Rép. Your move"


def test_rfc2047_from_names_give_the_bare_address():
    assert mail("german_reply_latin1_qp.eml").sender == "joerg@example.de"
    # The encoded name is "Müller, Ann": decoded first, the comma would split it in two.
    assert mail("base64_utf8.eml").sender == "ann@example.com"
    assert mail("iso_8859_1.eml").sender == "renee@example.fr"


# --- headers --------------------------------------------------------------------------------


def test_headers_are_normalised():
    m = mail("plain_text_only.eml")
    assert m.message_id == "CAPlain001@mail.example.com"
    assert m.in_reply_to == "turn-42.7@ravenpost.example"
    assert m.sender == "ann@example.com"  # from "Ann Example <Ann@Example.COM>"
    assert m.subject == "Re: Your move: Nine Men's Morris with Bob"
    assert m.authenticated is None  # the SMTP door reports nothing


def test_recipients_are_to_cc_and_delivered_to_once_each():
    # To is play+t0k3n@Ravenpost.Example, Delivered-To the same address in lower case.
    assert mail("plain_text_only.eml").recipients == (
        "play+t0k3n@ravenpost.example",
        "bob@example.org",
    )


def test_envelope_recipients_replace_the_headers_and_keep_the_local_part_case():
    m = from_raw(raw("plain_text_only.eml"), envelope_to=["Play+T0k3n@RAVENPOST.example"])
    assert m.recipients == ("Play+T0k3n@ravenpost.example",)


def test_absent_ids_are_empty():
    m = from_raw(b"From: ann@example.com\n\n2 5\n")
    assert (m.message_id, m.in_reply_to, m.subject) == ("", "", "")


# --- reply styles ---------------------------------------------------------------------------


def test_gmail_reply_keeps_only_the_new_lines():
    m = mail("gmail_reply.eml")
    assert m.new_text == NEW_LINES
    assert REPLY_MARKER in m.text  # text is the whole plain part


def test_gmail_html_reply_drops_the_gmail_quote_and_signature():
    assert mail("gmail_reply_html.eml").new_text == NEW_LINES


def test_outlook_reply_keeps_only_the_new_lines():
    assert mail("outlook_reply.eml").new_text == NEW_LINES


def test_outlook_original_message_block_is_dropped():
    assert mail("outlook_original_message.eml").new_text == NEW_LINES


def test_outlook_web_html_reply_stops_at_div_rply_fwd_msg():
    assert mail("outlook_reply_html.eml").new_text == NEW_LINES


def test_outlook_desktop_html_reply_stops_at_the_border_top_block():
    assert mail("outlook_desktop_html.eml").new_text == NEW_LINES


def test_apple_mail_reply_keeps_only_the_new_lines():
    assert mail("apple_mail_reply.eml").new_text == NEW_LINES


def test_apple_mail_html_reply_drops_blockquote_type_cite():
    assert mail("apple_mail_reply_html.eml").new_text == NEW_LINES


def test_thunderbird_reply_keeps_only_the_new_lines():
    assert mail("thunderbird_reply.eml").new_text == NEW_LINES


def test_thunderbird_html_reply_drops_moz_cite_prefix_and_its_blockquote():
    assert mail("thunderbird_reply_html.eml").new_text == NEW_LINES


def test_german_reply_drops_the_am_schrieb_header():
    m = mail("german_reply_latin1_qp.eml")
    assert "schrieb" not in m.new_text and "Zug" not in m.new_text


def test_whole_email_quoted_leaves_only_the_players_lines():
    # No attribution line; the quote has our marker near its top and the numbered moves.
    assert mail("whole_email_quoted.eml").new_text == "2 5\nGood luck, Ann!"


def test_whole_email_pasted_unquoted_is_cut_at_the_reply_marker():
    assert mail("whole_email_unquoted.eml").new_text == "2 5\nGood luck, Ann!"


def test_text_written_below_a_quote_is_kept():
    assert mail("bottom_post.eml").new_text == "2 5\nGood luck, Ann!"


def test_answers_between_quotes_are_kept():
    assert mail("inline_reply.eml").new_text == "Yes, gladly.\n\nNo draw: 2 5"


# --- signatures -----------------------------------------------------------------------------


def test_signature_after_dash_dash_space_is_removed_but_a_dash_line_is_not():
    assert mail("signature_dashes.eml").new_text == "2 5\n- and watch your mill on the left"


def test_sent_from_my_iphone_is_removed():
    assert mail("sent_from_iphone.eml").new_text == "2 5"


def test_von_meinem_iphone_gesendet_is_removed():
    assert mail("von_meinem_iphone.eml").new_text == "2 5, und viel Glück!"
    assert "iPhone" not in mail("german_reply_latin1_qp.eml").new_text


# --- automatic mail ---------------------------------------------------------------------------

CLIENT_REPLIES = [
    "gmail_reply.eml",
    "gmail_reply_html.eml",
    "outlook_reply.eml",  # carries X-Auto-Response-Suppress, as Exchange does on any mail
    "outlook_original_message.eml",
    "outlook_reply_html.eml",
    "outlook_desktop_html.eml",
    "apple_mail_reply.eml",
    "apple_mail_reply_html.eml",
    "thunderbird_reply.eml",
    "thunderbird_reply_html.eml",
    "german_reply_latin1_qp.eml",
    "plain_text_only.eml",
]


@pytest.mark.parametrize("name", CLIENT_REPLIES)
def test_a_normal_reply_is_not_automatic(name):
    assert mail(name).automatic is False


def test_exchange_out_of_office_is_automatic():
    assert mail("out_of_office_exchange.eml").automatic is True


def test_abwesenheitsnotiz_is_automatic():
    assert mail("abwesenheitsnotiz.eml").automatic is True


def test_bounce_is_automatic_and_its_text_is_the_report_not_the_returned_mail():
    m = mail("bounce_dsn.eml")
    assert m.automatic is True
    assert m.text.startswith("This is the mail system")
    assert "2 5" not in m.new_text


def test_bulk_mailing_list_is_automatic():
    assert mail("mailing_list_bulk.eml").automatic is True


@pytest.mark.parametrize(
    ("headers", "automatic"),
    [
        ({"Auto-Submitted": "auto-generated"}, True),
        ({"Auto-Submitted": "auto-replied; owner-email=ann@example.com"}, True),
        ({"Auto-Submitted": "no"}, False),
        ({"Precedence": "bulk"}, True),
        ({"Precedence": "auto_reply"}, True),
        ({"Precedence": "list"}, True),
        ({"Precedence": "Junk"}, True),
        ({"Precedence": "first-class"}, False),
        ({"X-Autoreply": "yes", "Subject": "Re: Your move (on vacation)"}, True),
        ({"X-Autorespond": "yes", "Subject": "Away from my desk: Your move"}, True),
        ({"X-Auto-Response-Suppress": "All", "Subject": "Re: Out of the office"}, True),
        ({"X-Autoreply": "yes"}, False),  # with a normal subject: too weak alone
        ({"X-Auto-Response-Suppress": "All"}, False),
        ({"Return-Path": "<>"}, True),
        ({"Return-Path": "<ann@example.com>"}, False),
        ({"From": "MAILER-DAEMON@mx.example.com"}, True),
        ({"From": "Postmaster <postmaster@example.com>"}, True),
        ({"Content-Type": "multipart/report; report-type=delivery-status; boundary=x"}, True),
        ({"Subject": "Out of Office: Your move"}, True),
        ({"Subject": "Automatic reply: Your move"}, True),
        ({"Subject": "Auto: Your move"}, True),
        ({"Subject": "Autoreply: Your move"}, True),
        ({"Subject": "Abwesenheitsnotiz: Du bist am Zug"}, True),
        ({"Subject": "Automatische Antwort: Du bist am Zug"}, True),
        ({"Subject": "=?utf-8?q?Automatische_Antwort:_M=C3=BChle?="}, True),
        ({"Subject": "Re: auto: a word inside is not a prefix"}, False),
    ],
    ids=lambda v: repr(v) if isinstance(v, dict) else str(v),
)
def test_automatic_mail_is_recognised_by_its_headers(headers, automatic):
    assert from_raw(variant("plain_text_only.eml", **headers)).automatic is automatic


# --- garbage never raises ---------------------------------------------------------------------


def test_a_malformed_message_gives_what_could_be_read():
    m = mail("malformed.eml")
    assert isinstance(m, InboundMail)
    assert m.message_id == "broken"
    assert m.sender == ""  # "unterminated <nobody" is no address
    assert m.recipients == ()
    assert "caf" in m.subject
    assert isinstance(m.text, str) and isinstance(m.new_text, str)


@pytest.mark.parametrize(
    "data",
    [b"", b"\x00", b"\xff\xfe\xfd", b"\n\n\n", raw("garbage.bin.eml"), b"From:\n\n" * 10_000],
    ids=["empty", "nul", "binary", "blank", "garbage-file", "repeated-headers"],
)
def test_garbage_never_raises(data):
    m = from_raw(data)
    assert (m.message_id, m.sender, m.recipients, m.in_reply_to) == ("", "", (), "")


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_never_raise(data):
    assert isinstance(
        from_raw(b"Content-Type: multipart/mixed; boundary=b\n\n" + data), InboundMail
    )


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"email": b"\xff\x00"},
        {"charsets": "not json", "text": b"\xff2 5", "envelope": "[1, 2]"},
        {"charsets": '{"text": "x-no-such-charset"}', "text": b"2 5", "dkim": "none"},
        {"envelope": '{"to": "play@ravenpost.example"}', "headers": "\x00\n:"},
    ],
)
def test_sendgrid_garbage_never_raises(fields):
    assert isinstance(from_sendgrid(fields), InboundMail)


def test_a_huge_mail_is_capped_and_quick():
    body = ("2 5 " + "x" * 70 + "\n") * 100_000  # 7.5 MB of text
    started = time.monotonic()
    m = from_raw(b"From: ann@example.com\nSubject: big\n\n" + body.encode())
    assert len(m.text) <= MAX_TEXT and len(m.new_text) <= MAX_TEXT
    assert time.monotonic() - started < 5


def test_long_lines_are_kept_whole_and_quick():
    # One long "On ..." line without "wrote:" took the reply library 100 s at 60 KB.
    talk = "On " + "second thoughts, " * 3000
    started = time.monotonic()
    m = from_raw(f"From: ann@example.com\n\n2 5\n{talk}\n> {REPLY_MARKER}\n".encode())
    assert m.new_text == f"2 5\n{talk.strip()}"
    assert time.monotonic() - started < 5


# --- SendGrid Inbound Parse -----------------------------------------------------------------


def test_sendgrid_parsed_mode_decodes_each_field_in_its_charset():
    m = from_sendgrid(form("sendgrid_parsed.json"))  # text is iso-8859-1, the rest UTF-8
    assert m.new_text == "2 5\n\nMöge der Bessere gewinnen!"
    assert m.subject == "AW: Du bist am Zug: Mühle"
    assert m.sender == "joerg@example.de"


def test_sendgrid_str_fields_are_taken_as_they_are():
    fields = json.loads((SAMPLES / "sendgrid_parsed.json").read_text(encoding="utf-8"))
    assert from_sendgrid(fields).new_text == "2 5\n\nMöge der Bessere gewinnen!"


def test_sendgrid_parsed_mode_reads_ids_from_the_header_block():
    m = from_sendgrid(form("sendgrid_parsed.json"))
    assert m.message_id == "CAGmail-sg-1@mail.gmail.example"
    assert m.in_reply_to == "turn-42.7@ravenpost.example"
    assert m.automatic is False


def test_sendgrid_envelope_gives_the_recipients():
    m = from_sendgrid(form("sendgrid_parsed.json"))
    assert m.recipients == ("play+T0k3n@reply.ravenpost.example",)


def test_sendgrid_without_envelope_takes_to_and_cc():
    m = from_sendgrid(form("sendgrid_parsed.json", envelope=None))
    assert m.recipients == ("play+t0k3n@ravenpost.example", "bob@example.org")


def test_sendgrid_dkim_pass_for_the_from_domain_authenticates():
    assert from_sendgrid(form("sendgrid_parsed.json")).authenticated is True  # SPF softfail


def test_sendgrid_spf_pass_authenticates():
    m = from_sendgrid(form("sendgrid_parsed.json", dkim="{@example.de : fail}", SPF="pass"))
    assert m.authenticated is True


def test_sendgrid_dkim_pass_for_another_domain_does_not_authenticate():
    m = from_sendgrid(form("sendgrid_html_only_unauthenticated.json"))
    assert m.authenticated is False


def test_sendgrid_without_spf_or_dkim_reports_nothing():
    m = from_sendgrid(form("sendgrid_parsed.json", dkim=None, SPF=None))
    assert m.authenticated is None


def test_sendgrid_html_only_reads_the_html_in_its_charset():
    m = from_sendgrid(form("sendgrid_html_only_unauthenticated.json"))
    assert m.text.startswith("2 5\n\nGood luck, Ann!")
    assert m.new_text == NEW_LINES


def test_sendgrid_raw_mode_parses_the_email_field():
    m = from_sendgrid(form("sendgrid_raw.json"))
    assert m.new_text == NEW_LINES
    assert m.message_id == "CAGmail+2x5=ann@mail.gmail.example"
    assert m.recipients == ("play+t0k3n@ravenpost.example",)
    assert m.authenticated is True  # DKIM passed for example.com; SPF only neutral


def test_sendgrid_raw_mode_subject_auto_reply_is_automatic():
    fields = form("sendgrid_raw.json")
    fields["email"] = variant("gmail_reply.eml", Subject="Automatic reply: Your move")
    assert from_sendgrid(fields).automatic is True
