"""TLS for the mock server: the files of a given certificate, or a fresh one made at start.

``restwalk-mock --tls`` with no ``--cert``/``--key`` makes a throwaway
certificate authority and a server certificate it signs for ``127.0.0.1``,
``::1`` and ``localhost``, valid from an hour ago for thirty days. Only the
authority's certificate is printed: it is what a client trusts
(``curl --cacert``, ``restwalk request --cacert``, ``httpx`` with
``verify=ssl.create_default_context(cafile=...)``). An authority and a leaf,
rather than one self-signed certificate, because strict verifiers (OpenSSL's
``X509_STRICT``, which Python 3.13 turns on by default) refuse a leaf that is
its own trust anchor.

The keys are EC P-256 (made in microseconds, unlike RSA), written ``0600``
into a private temporary folder that :class:`SelfSigned` removes on close.

Making one takes the ``cryptography`` package, the ``tls`` extra
(``pip install 'restwalk[tls]'``): it is imported only then, and a server
given ``--cert`` and ``--key`` needs only the standard library.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import shutil
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: The names a made certificate is valid for: the loopback addresses and name.
LOOPBACK_NAMES: tuple[str, ...] = ("127.0.0.1", "::1", "localhost")
VALIDITY = datetime.timedelta(days=30)
#: Some slack for a client whose clock is behind the server's.
BACKDATE = datetime.timedelta(hours=1)


#: What to do when ``cryptography`` is missing, for the one-line error.
MAKER_MISSING = (
    "--tls without --cert/--key makes a certificate with the cryptography package, "
    "which is not installed: pip install 'restwalk[tls]', or give --cert and --key"
)


def can_make_certificates() -> bool:
    """True if :class:`SelfSigned` can work (the ``cryptography`` package is installed)."""
    try:
        import cryptography  # noqa: F401
    except ImportError:
        return False
    return True


class CertificateError(ValueError):
    """A certificate or key file that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class CertificateFiles:
    """What a TLS server needs: its certificate chain and key, as PEM files.

    ``ca`` is the certificate a client should trust; None when the files were
    given (their issuer is the user's business).
    """

    cert: Path
    key: Path
    ca: Path | None = None


def check_files(cert: Path, key: Path) -> CertificateFiles:
    """``cert`` and ``key`` if they load as a certificate chain and its key, else CertificateError.

    Checked at start, so a wrong path or a key that does not match is one line
    and exit 2 rather than a failure at the first handshake.
    """
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(cert, key)
    except FileNotFoundError as error:
        raise CertificateError(f"no such file: {error.filename}") from None
    except (OSError, ssl.SSLError) as error:
        reason = getattr(error, "reason", None) or error.strerror or str(error)
        raise CertificateError(
            f"cannot use {cert} and {key} as a certificate and its key: {reason}"
        ) from None
    return CertificateFiles(cert=cert, key=key)


class SelfSigned:
    """A throwaway authority and a server certificate for the loopback names, in a temp folder.

    ``with SelfSigned() as files: ...`` or ``close()`` when done: the folder goes away.
    """

    def __init__(self, names: tuple[str, ...] = LOOPBACK_NAMES) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="restwalk-mock-tls-"))
        try:
            self.files = _write_certificates(self.directory, names)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Remove the folder and the files in it."""
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> CertificateFiles:
        return self.files

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _write_certificates(directory: Path, names: tuple[str, ...]) -> CertificateFiles:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "restwalk-mock throwaway CA")])
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE)
        .not_valid_after(now + VALIDITY)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(ca_ski, critical=False)
        .sign(ca_key, hashes.SHA256())
    )

    key = ec.generate_private_key(ec.SECP256R1())
    alternative_names: list[x509.GeneralName] = []
    for name in names:
        try:
            alternative_names.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alternative_names.append(x509.DNSName(name))
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "restwalk-mock")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE)
        .not_valid_after(now + VALIDITY)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(alternative_names), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )

    pem = serialization.Encoding.PEM
    ca_file = directory / "ca.pem"
    files = CertificateFiles(
        cert=directory / "server.pem", key=directory / "server.key", ca=ca_file
    )
    ca_file.write_bytes(ca_cert.public_bytes(pem))
    # The chain a server presents: its own certificate, then the issuer's.
    files.cert.write_bytes(cert.public_bytes(pem) + ca_cert.public_bytes(pem))
    key_pem = key.private_bytes(
        pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    descriptor = os.open(files.key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(key_pem)
    return files
