#!/usr/bin/env python3
"""Scans service logs for secrets: sign-in tokens (JWTs), Authorization header values,
passwords (in connection strings, and the demo and test passwords), recovery codes and
link tokens (from the e-mails of the run's outbox, and any long hex token), card numbers
(Luhn-valid, and the test cards) and the payment provider's hashes.

`./navalha test` runs it on the end-to-end run's logs after Playwright. By hand:

    scripts/scan-secrets.py [--outbox DIR] [--secret VALUE]... LOG_DIR_OR_FILE...

Each hit is printed as `file:line: kind: the line with every secret masked`, never the secret
itself. Exit status: 0 clean, 1 secrets found, 2 nothing to scan or a usage error.
Python 3 standard library only."""

import argparse
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Values that must never be logged however they are formatted.
PATTERNS = [
    ("JWT", re.compile(r"eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?")),
    ("Authorization header value", re.compile(r"\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}")),
    # scheme://user:password@host (DATABASE_URL, NAVALHA_SMTP_URL); the password part only.
    ("password in a URL", re.compile(r"(?<=[a-z0-9+.-]://)[^\s/:@]*:[^\s/@]+(?=@)", re.I)),
    # Recovery, invitation and checkout link tokens are 64 hex digits, card hashes 48.
    ("hex token", re.compile(r"(?<![0-9A-Fa-f])[0-9A-Fa-f]{48,}(?![0-9A-Fa-f])")),
]

# 13 to 19 digits, alone or in groups separated by a space or a dash, and not part of a
# hex word or a UUID (a request id's groups can be all digits).
DIGIT_RUN = re.compile(r"(?<![0-9A-Fa-f-])[0-9](?:[ -]?[0-9]){12,18}(?![0-9A-Fa-f-])")
# Issuer prefixes of the card brands Navalha takes (Visa, Mastercard, Amex, Diners, Elo,
# Discover, Hipercard): keeps out ids made of the clock's milliseconds (1…).
CARD_PREFIX = re.compile(r"^(?:4|5[1-5]|2[2-7]|3[0478]|6)")
# A recovery code in an e-mail: six digits on their own.
SIX_DIGITS = re.compile(r"(?<![0-9])[0-9]{6}(?![0-9])")
HEX64 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")


def luhn(digits):
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = int(c)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def card_grouping(run):
    """Whether a run of digits is grouped as a card is written: all together, in fours
    (the last group shorter), or 4-6-5 and 4-6-4 (Amex, Diners). A reminder's key,
    `a1-r24-202611291000`, is a number and a date, not a card.

    >>> card_grouping("4111111111111111"), card_grouping("4111 1111 1111 1111")
    (True, True)
    >>> card_grouping("3782-822463-10005"), card_grouping("4000-0000-0000-000")
    (True, True)
    >>> card_grouping("24-202611291000")
    False
    """
    groups = [len(group) for group in re.split(r"[ -]", run)]
    if len(groups) == 1 or groups in ([4, 6, 5], [4, 6, 4]):
        return True
    return all(size == 4 for size in groups[:-1]) and 1 <= groups[-1] <= 4


def read(path):
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def repo_passwords():
    """The demo password of the seed and the passwords the end-to-end tests type."""
    found = set()
    sources = list((ROOT / "web" / "e2e").glob("**/*.ts"))
    sources += [ROOT / "command-api" / "src" / "seed.rs", ROOT / "bench" / "src" / "main.rs"]
    patterns = [
        re.compile(r"password\w*\s*[:=]\s*['\"`]([^'\"`\s]{6,})['\"`]", re.I),
        re.compile(r"PASSWORD\s*:\s*&str\s*=\s*\"([^\"]{6,})\""),
        # signIn(page, email, 'literal') and the like.
        re.compile(r"signIn\w*\(\s*\w+\s*,[^,()]+,\s*['\"]([^'\"\s]{6,})['\"]"),
    ]
    for source in sources:
        text = read(source)
        for pattern in patterns:
            found.update(pattern.findall(text))
    return found


def repo_cards():
    """Card numbers written in the end-to-end tests and the provider simulator."""
    found = set()
    sources = list((ROOT / "web" / "e2e").glob("**/*.ts")) + list((ROOT / "provider-sim" / "src").glob("*"))
    for source in sources:
        found.update(re.findall(r"(?<![0-9])[0-9]{13,19}(?![0-9])", read(source)))
    return found


def repo_hashes():
    """The simulator's default GalaxHash and webhook hash (its hidden settings' defaults), and
    the ones this run was given."""
    text = read(ROOT / "provider-sim" / "src" / "lib.rs")
    found = set(re.findall(r'default_value\s*=\s*"([^"]+)",\s*hide_env_values', text))
    for name in ("NAVALHA_GALAXPAY_HASH", "NAVALHA_GALAXPAY_WEBHOOK_HASH"):
        if os.environ.get(name):
            found.add(os.environ[name])
    return found


def outbox_secrets(outbox):
    """Recovery codes and link tokens of the e-mails the run wrote to its outbox."""
    codes, tokens, mails = set(), set(), 0
    for path in sorted(Path(outbox).glob("*.json")):
        try:
            text = json.loads(read(path)).get("text", "")
        except (ValueError, AttributeError):
            continue
        mails += 1
        codes.update(SIX_DIGITS.findall(text))
        tokens.update(HEX64.findall(text))
    return codes, tokens, mails


def log_files(paths):
    files = []
    for path in map(Path, paths):
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.is_file())
        elif path.is_file():
            files.append(path)
    return files


def mask(value):
    """What stands in for a secret in the report: its length only."""
    return f"[masked: {len(value)} chars]"


# In the context printed around a hit, anything else that might be a code or a token.
SCRUB = re.compile(r"(?<![0-9])[0-9]{6,}(?![0-9])|(?<![0-9A-Fa-f])[0-9A-Fa-f]{16,}(?![0-9A-Fa-f])")


def scan_line(line, known):
    """(kind, start, end) of every secret in the line."""
    hits = []
    for kind, pattern in PATTERNS:
        hits += [(kind, m.start(), m.end()) for m in pattern.finditer(line)]
    for m in DIGIT_RUN.finditer(line):
        digits = re.sub(r"[ -]", "", m.group())
        if CARD_PREFIX.match(digits) and luhn(digits) and card_grouping(m.group()):
            hits.append(("card number", m.start(), m.end()))
    for kind, value, digits_only in known:
        start = line.find(value)
        while start >= 0:
            end = start + len(value)
            if not digits_only or not within_number(line, start, end):
                hits.append((kind, start, end))
            start = line.find(value, start + 1)
    return hits


def within_number(line, start, end):
    """Whether line[start:end] is part of a longer number: digits, or a decimal point and a
    digit, on either side. A code is six digits on their own; a log timestamp's microseconds
    may be the same six digits by chance.

    >>> within_number("code 123456 sent", 5, 11)
    False
    >>> within_number("code: 123456.", 6, 12)
    False
    >>> within_number("id 91234567", 4, 10)
    True
    >>> within_number("2026-11-26T06:48:06.123456Z  INFO", 20, 26)
    True
    >>> within_number("1.5 123456.75", 4, 10)
    True
    """
    def digit(i):
        return 0 <= i < len(line) and line[i].isdigit()

    before = digit(start - 1) or (start >= 1 and line[start - 1] == "." and digit(start - 2))
    after = digit(end) or (end < len(line) and line[end] == "." and digit(end + 1))
    return before or after


def masked_line(line, hits):
    """The line with its secrets masked, cut to a window around the first one."""
    out, last, first = [], 0, None
    for _, start, end in sorted(hits, key=lambda h: (h[1], -h[2])):
        if start < last:
            continue
        out.append(SCRUB.sub("[…]", line[last:start]))
        if first is None:
            first = sum(map(len, out))
        out.append(mask(line[start:end]))
        last = end
    out.append(SCRUB.sub("[…]", line[last:]))
    text = "".join(out)
    begin = max(0, first - 100)
    window = text[begin : first + 140]
    return ("…" if begin else "") + window.strip() + ("…" if first + 140 < len(text) else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="log files or folders of logs")
    parser.add_argument("--outbox", help="the run's outbox folder: its recovery codes and link tokens are looked for")
    parser.add_argument("--secret", action="append", default=[], help="another value that must not appear")
    args = parser.parse_args()

    known = []  # (kind, value, digits only)
    passwords = repo_passwords()
    if not passwords:
        print("scan-secrets: found no demo or test password to look for (web/e2e, seed.rs)", file=sys.stderr)
        return 2
    known += [("password", p, False) for p in passwords]
    cards = repo_cards()
    known += [("test card number", c, True) for c in cards]
    hashes = repo_hashes()
    known += [("payment provider hash", h, False) for h in hashes]
    known += [("secret", s, False) for s in args.secret if s]
    codes, tokens, mails = set(), set(), 0
    if args.outbox:
        codes, tokens, mails = outbox_secrets(args.outbox)
        known += [("recovery code", c, True) for c in codes]
        known += [("link token", t, False) for t in tokens]

    files = log_files(args.paths)
    if not files:
        print(f"scan-secrets: no log files in {' '.join(args.paths)}", file=sys.stderr)
        return 2
    found, lines = 0, 0
    for path in files:
        for number, line in enumerate(read(path).splitlines(), 1):
            lines += 1
            hits = scan_line(line, known)
            if hits:
                found += 1
                kinds = ", ".join(sorted({kind for kind, _, _ in hits}))
                print(f"{path}:{number}: {kinds}: {masked_line(line, hits)}")
    looked_for = (
        f"{len(passwords)} passwords, {len(cards)} test cards, {len(hashes)} provider hashes, "
        f"{len(codes)} codes and {len(tokens)} link tokens from {mails} e-mails"
    )
    if found:
        print(f"scan-secrets: {found} log lines hold secrets ({len(files)} files scanned)", file=sys.stderr)
        return 1
    print(f"scan-secrets: no secrets in {len(files)} files, {lines} lines (looked for patterns and {looked_for})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
