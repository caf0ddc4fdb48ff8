"""`ravenpost serve` runs the SMTP receiver for replies beside the web server."""

from __future__ import annotations

import smtplib
import socket

import click
import redis

from service.cli import serve
from tests.integration.test_embedded import free_port, start_serve, stop_serve, wait_until
from worker import inbox


def test_serve_takes_an_smtp_port_and_zero_turns_the_receiver_off():
    assert serve.make_context("serve", ["--smtp-port", "2600"]).params["smtp_port"] == 2600
    assert serve.make_context("serve", ["--smtp-port", "0"]).params["smtp_port"] == 0
    assert serve.make_context("serve", []).params["smtp_port"] is None  # INBOUND_SMTP_PORT
    for wrong in ("-1", "70000", "smtp"):
        try:
            serve.make_context("serve", ["--smtp-port", wrong])
        except click.BadParameter:
            continue
        raise AssertionError(f"--smtp-port {wrong} was accepted")


def test_serve_receives_a_reply_by_smtp_and_stops_the_receiver(tmp_path):
    port, smtp_port = free_port(), free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as output:
        proc = start_serve(tmp_path / "var", port, output=output,
                           INBOUND_SMTP_PORT=str(smtp_port))
        try:
            assert wait_until(lambda: f"SMTP on 127.0.0.1:{smtp_port}" in log.read_text())
            raw = (b"Message-ID: <serve-1@mail.example.com>\r\nFrom: ada@example.com\r\n"
                   b"To: play+abc@reply.ravenpost.localhost\r\nSubject: Re: turn\r\n\r\nhi\r\n")
            with smtplib.SMTP("127.0.0.1", smtp_port, timeout=10) as smtp:
                smtp.sendmail("ada@example.com", ["play+abc@reply.ravenpost.localhost"], raw)
            store = redis.Redis(unix_socket_path=str(tmp_path / "var" / "redis.sock"),
                                decode_responses=True)
            stored = inbox.load(store, inbox.key_for(raw=raw))
            assert stored is not None and stored["raw"] == raw and stored["door"] == "smtp"
        finally:
            stop_serve(proc)
    with socket.socket() as probe:  # stopped with everything else: the port is free again
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", smtp_port))
