"""HTTPS for a field with no internet: a certificate authority of the laptop's own, and a server certificate
it signs for the laptop's names and addresses.

A tablet reaching the laptop as ``http://pitch.lan`` is not in a secure context, so its browser runs no
service worker and a reload with the server down shows no console. Over HTTPS, with the laptop's CA
installed on the tablet once (``/setup/tablet`` shows how), it is. ``matchstate serve --tls`` makes the CA
once and keeps it beside the store's secret (``SECRET.tls-ca.pem`` and its key), and a server certificate
(``SECRET.tls.pem`` and its key) for the names it is given; a new name makes a new server certificate
signed by the same CA, so the tablets need not install anything again. Every file is mode 0600.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import ipaddress
import os
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_YEARS = 10
SERVER_DAYS = 825  # the longest a server certificate may live for Apple's devices

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def laptop_names(extra: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The names and addresses a tablet may reach this machine by: its host name, that name under
    ``.local`` (mDNS), its addresses that are not loopback, ``localhost`` and ``127.0.0.1``; then ``extra``."""
    host = socket.gethostname()
    names = [host, f"{host}.local" if not host.endswith(".local") else host, "localhost", "127.0.0.1"]
    addresses: list[str] = []
    with contextlib.suppress(OSError):
        addresses += [str(info[4][0]) for info in socket.getaddrinfo(host, None)]
    for probe, family in (("10.255.255.255", socket.AF_INET), ("fd00::1", socket.AF_INET6)):
        # Connecting a UDP socket sends nothing: it only asks the kernel which address it would send from.
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((probe, 9))
            addresses.append(str(sock.getsockname()[0]))
    for address in addresses:
        parsed = _address(address.split("%")[0])
        if parsed is not None and not (parsed.is_loopback or parsed.is_link_local or parsed.is_unspecified):
            names.append(str(parsed))
    return list(dict.fromkeys([*names, *extra]))


def _address(name: str) -> Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


@dataclass(frozen=True)
class TlsFiles:
    """Where the laptop's CA and server certificate are: beside the store's secret at ``secret``."""

    secret: Path

    def _path(self, suffix: str) -> Path:
        return self.secret.with_name(self.secret.name + suffix)

    @property
    def ca_cert(self) -> Path:
        return self._path(".tls-ca.pem")

    @property
    def ca_key(self) -> Path:
        return self._path(".tls-ca.key")

    @property
    def server_cert(self) -> Path:
        return self._path(".tls.pem")

    @property
    def server_key(self) -> Path:
        return self._path(".tls.key")

    def ensure(self, names: list[str], now: datetime.datetime | None = None) -> None:
        """Make the CA if there is none, and a server certificate if there is none, or it lacks one of
        ``names``, or it is expiring within a month."""
        now = now or datetime.datetime.now(datetime.UTC)
        if not (self.ca_cert.exists() and self.ca_key.exists()):
            self._make_ca(now)
        if self._server_covers(names, now):
            return
        ca_key = serialization.load_pem_private_key(self.ca_key.read_bytes(), password=None)
        assert isinstance(ca_key, ec.EllipticCurvePrivateKey)
        ca = x509.load_pem_x509_certificate(self.ca_cert.read_bytes())
        key = ec.generate_private_key(ec.SECP256R1())
        sans: list[x509.GeneralName] = []
        for name in names:
            address = _address(name)
            sans.append(x509.IPAddress(address) if address is not None else x509.DNSName(name))
        certificate = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
            .issuer_name(ca.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
            .add_extension(x509.SubjectAlternativeName(sans), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.KeyUsage(digital_signature=True, key_encipherment=False, content_commitment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                         crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256())
        )
        _write(self.server_key, _private_pem(key))
        _write(self.server_cert, certificate.public_bytes(serialization.Encoding.PEM)
               + self.ca_cert.read_bytes())  # the chain, as a browser wants it

    def _make_ca(self, now: datetime.datetime) -> None:
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "matchstate"),
                          x509.NameAttribute(NameOID.COMMON_NAME, f"matchstate pitch CA ({socket.gethostname()})")])
        certificate = (
            x509.CertificateBuilder()
            .subject_name(name).issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=365 * CA_YEARS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_encipherment=False, content_commitment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                         crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256())
        )
        _write(self.ca_key, _private_pem(key))
        _write(self.ca_cert, certificate.public_bytes(serialization.Encoding.PEM))
        for stale in (self.server_cert, self.server_key):  # signed by a CA that is no more
            stale.unlink(missing_ok=True)

    def _server_covers(self, names: list[str], now: datetime.datetime) -> bool:
        if not (self.server_cert.exists() and self.server_key.exists()):
            return False
        certificate = x509.load_pem_x509_certificate(self.server_cert.read_bytes())
        if certificate.not_valid_after_utc - now < datetime.timedelta(days=30):
            return False
        sans = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        covered = {str(value) for value in sans.get_values_for_type(x509.IPAddress)}
        covered |= set(sans.get_values_for_type(x509.DNSName))
        return all(str(_address(name) or name) in covered for name in names)


def ca_fingerprint(pem: bytes) -> str:
    """The SHA-256 fingerprint of a certificate, as the devices' certificate screens show it (AB:CD:...)."""
    der = x509.load_pem_x509_certificate(pem).public_bytes(serialization.Encoding.DER)
    return ":".join(f"{byte:02X}" for byte in hashlib.sha256(der).digest())


def _private_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _write(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path`` (mode 0600) whole: a reader sees the old file or the new one."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor, staged = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
        os.replace(staged, path)
    except BaseException:
        os.unlink(staged)
        raise


@dataclass(frozen=True)
class ServedTls:
    """How a server is served, for the tablet setup page: ``ca`` is the PEM of the laptop's own CA (None with
    a league's certificate or none), ``https`` whether it serves HTTPS at all, ``names`` what the tablets
    may reach it by."""

    https: bool = False
    ca: bytes | None = None
    names: tuple[str, ...] = ()

    def tablet_host(self, asked: str) -> str:
        """The name a tablet should use: ``asked`` (the request's host), unless that is this machine's
        loopback, then the first of ``names`` that is not."""
        address = _address(asked.strip("[]"))
        if asked != "localhost" and not (address is not None and address.is_loopback):
            return asked
        for name in self.names:
            parsed = _address(name)
            if name != "localhost" and not (parsed is not None and parsed.is_loopback) and "." in name:
                return name
        return asked
