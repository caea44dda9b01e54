"""Optional TLS for a network game: a self-signed certificate made for one session, and its fingerprint.

The host makes a fresh key and certificate with the system's ``openssl`` (an EC P-256 key, valid for
30 days, in a private temporary folder removed as soon as they are loaded) and shows the
certificate's SHA-256 fingerprint; the guest connects without a certificate authority and shows the
fingerprint it got, and refuses the host when it was given one (``--fingerprint``) that differs
(compared in constant time).  Comparing the two fingerprints by voice or chat is what makes the line
safe from someone in the middle.
"""

from __future__ import annotations

import hashlib
import hmac
import shutil
import ssl
import subprocess
import tempfile
from pathlib import Path

__all__ = ["TlsError", "fingerprint", "host_context", "client_context", "check_fingerprint"]


class TlsError(OSError):
    """TLS could not be set up, or the host's certificate is not the one expected: one line."""


def fingerprint(der: bytes) -> str:
    """A certificate's SHA-256 fingerprint as it is usually shown: ``AB:CD:...`` (32 pairs)."""
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def host_context() -> tuple[ssl.SSLContext, str]:
    """A server context with a fresh self-signed certificate, and the certificate's fingerprint."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise TlsError("TLS needs the openssl program to make a certificate, and none is installed")
    with tempfile.TemporaryDirectory(prefix="tui-games-tls-") as folder:
        key, cert = Path(folder) / "key.pem", Path(folder) / "cert.pem"
        made = subprocess.run(
            [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-days", "30", "-subj", "/CN=tui-games", "-keyout", str(key), "-out", str(cert)],
            capture_output=True, text=True, timeout=30, check=False)
        if made.returncode != 0:
            raise TlsError(f"openssl could not make a certificate: {made.stderr.strip()[-200:]}")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(cert, key)
        der = ssl.PEM_cert_to_DER_cert(cert.read_text())
    return context, fingerprint(der)


def client_context() -> ssl.SSLContext:
    """A client context that takes the host's self-signed certificate (its fingerprint is checked instead)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def check_fingerprint(got: str, expected: str | None) -> None:
    """Refuse a host whose fingerprint is not ``expected`` (``None``: any, shown to the user)."""
    if expected is None:
        return
    wanted = expected.strip().upper().replace("-", ":")
    if not hmac.compare_digest(got.encode(), wanted.encode()):
        raise TlsError(f"the host's certificate fingerprint is {got[:23]}..., not the {wanted[:23]}... you were "
                       "given: someone may be in the middle")
