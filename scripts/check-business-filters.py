#!/usr/bin/env python3
"""Every statement on a table that would be sharded by business names the business.

ADR 0029 plans Navalha past one primary as Citus with the business as the distribution
key. A statement that does not name the business on such a table would then run on every
shard. This check reads pg_stat_statements of one database after a run (the end-to-end
stage: every screen and the API fuzz) and lists the statements on those tables that do
not filter by the business: they name neither `business_id` nor `navalha_business()`, no
row-level security policy filters them for the role that ran them, and they are not an
insert whose rows take the business of the event being applied (the projector's
`navalha_event_business()` default).

The tables are those with a `business_id` column, found in the database itself, so a new
read model joins the check by being made. `events` has no such column yet (the ADR's first
step): its statements are counted, not checked.

Statements known to go without the business, each with its reason, are in
scripts/business-filters-allowed.txt (one `role<TAB>table<TAB>digest<TAB>reason` per
line); any other fails the check. A digest is the md5 of the normalized statement text,
whitespace collapsed.

    check-business-filters.py [--add-allowed REASON] PSQL_ARGS...
        (e.g. -h 127.0.0.1 -p 55433 -U postgres -d navalha_e2e)

--add-allowed appends the statements that fail to the allowed list with REASON (to take
stock once; a new statement should name the business instead).

>>> sharded = {"client": ["rm_client.client"], "appointment": ["rm_agenda.appointment"]}
>>> sorted(tables_in("select a.x from rm_agenda.appointment a join client c on true", sharded))
['rm_agenda.appointment', 'rm_client.client']
>>> tables_in("select extract(dow from b.date) from rm_agenda.checkpoint", sharded)
set()
>>> tables_in("update checkpoint set last_position = $1", {})
set()
>>> names_business("select * from client where business_id = $1")
True
>>> names_business("select * from client where client_id = $1")
False
"""

import hashlib
import json
import os
import re
import subprocess
import sys

# The services' roles (docs/deploy.md, "Database roles"). The superuser's statements are the
# test scripts' and operators', and the owner's are the migrations, run once before any
# sharding: neither is the product's traffic.
SERVICE_ROLES = {"navalha_command", "navalha_query", "navalha_projector"}

ALLOWED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "business-filters-allowed.txt")

# An insert's target table.
INSERT_TARGET = re.compile(r'\s*insert\s+into\s+((?:"?[a-z_][a-z0-9_]*"?\.)?"?[a-z_][a-z0-9_]*"?)', re.I)

# A table after FROM, JOIN, UPDATE, INTO or DELETE FROM, maybe schema-qualified and quoted.
TABLE = re.compile(r'\b(?:from|join|update|into)\s+((?:"?[a-z_][a-z0-9_]*"?\.)?"?[a-z_][a-z0-9_]*"?)', re.I)

SQL = r"""
select json_build_object(
  'statements', coalesce((
    select json_agg(json_build_object('query', s.query, 'role', r.rolname, 'calls', s.calls))
      from pg_stat_statements s join pg_roles r on r.oid = s.userid
     where s.dbid = (select oid from pg_database where datname = current_database())), '[]'),
  'tables', coalesce((
    select json_agg(distinct c.table_schema || '.' || c.table_name)
      from information_schema.columns c
      join information_schema.tables t using (table_schema, table_name)
     where c.column_name = 'business_id' and t.table_type = 'BASE TABLE'
       and c.table_schema not like '%\_next'), '[]'),
  'event_business', coalesce((
    select json_agg(table_schema || '.' || table_name)
      from information_schema.columns
     where column_name = 'business_id' and column_default like '%navalha_event_business()%'), '[]'),
  'secured', coalesce((
    select json_agg(json_build_object('table', p.schemaname || '.' || p.tablename, 'roles', p.roles))
      from pg_policies p
     where p.qual like '%navalha_business()%'), '[]'))
"""


def normalize(query):
    return " ".join(query.split())


def digest(query):
    return hashlib.md5(normalize(query).encode()).hexdigest()


def tables_in(query, by_name):
    """The sharded tables a statement names: qualified ones as written, bare ones by name
    (the projector sets search_path to the model's schema). `by_name` maps a sharded
    table's bare name to its qualified names."""
    sharded = {table for tables in by_name.values() for table in tables}
    found = set()
    for match in TABLE.findall(query):
        name = match.replace('"', "").lower()
        if "." in name:
            if name.startswith("public."):
                name = name[len("public."):]
            else:
                found.update({name} & sharded)
                continue
        found.update(by_name.get(name, []))
    return found


def names_business(query):
    text = query.lower()
    return "business_id" in text or "navalha_business()" in text


def load_allowed():
    allowed = {}
    if os.path.exists(ALLOWED):
        with open(ALLOWED, encoding="utf-8") as f:
            for line in f:
                if not line.strip() or line.startswith("#"):
                    continue
                role, table, key, reason = line.rstrip("\n").split("\t", 3)
                allowed[(role, table, key)] = reason
    return allowed


def main(args):
    reason = None
    if args[:1] == ["--add-allowed"]:
        reason, args = args[1], args[2:]
    psql_args = args
    # The statistics are the cluster's; the view needs the extension in this database.
    subprocess.run([os.environ.get("PSQL", "psql"), "-X", "-qAt", *psql_args, "-c", "create extension if not exists pg_stat_statements"],
                   check=True, capture_output=True, text=True)
    out = subprocess.run([os.environ.get("PSQL", "psql"), "-X", "-qAt", *psql_args, "-c", SQL], check=True, capture_output=True, text=True)
    data = json.loads(out.stdout)
    sharded = set(data["tables"])
    by_name = {}
    for table in sharded:
        by_name.setdefault(table.split(".", 1)[1], []).append(table)
    event_business = set(data["event_business"])
    secured = {}
    for policy in data["secured"]:
        roles = policy["roles"]
        if isinstance(roles, str):  # name[] comes as "{a,b}"
            roles = roles.strip("{}").split(",")
        secured.setdefault(policy["table"], set()).update(roles)
    allowed = load_allowed()
    failures = {}
    checked = events = 0
    for statement in data["statements"]:
        query, role = statement["query"], statement["role"]
        if role not in SERVICE_ROLES:
            continue
        if re.search(r"\b(from|join|into|update)\s+(public\.)?events\b", query, re.I):
            events += 1
        tables = tables_in(query, by_name)
        # An insert's new rows take the business of the event being applied (the column's
        # default, navalha_event_business()); what it reads must still name it.
        target = INSERT_TARGET.match(query)
        if target:
            tables -= tables_in(f"into {target.group(1)}", by_name) & event_business
        if not tables:
            continue
        checked += 1
        if names_business(query):
            continue
        key = digest(query)
        for table in sorted(tables):
            if role in secured.get(table, ()):
                continue
            if (role, table, key) in allowed:
                continue
            failures[(role, table, key)] = normalize(query)
    print(f"business filters: {checked} statements on {len(sharded)} sharded tables checked; "
          f"{events} on events (no business column yet, ADR 0029)")
    for (role, table, key), query in sorted(failures.items()):
        print(f"  {role}\t{table}\t{key}\t{query[:300]}")
    if failures and reason:
        with open(ALLOWED, "a", encoding="utf-8") as f:
            for (role, table, key), query in sorted(failures.items()):
                f.write(f"{role}\t{table}\t{key}\t{reason} ({query[:120]})\n")
        print(f"added {len(failures)} to {os.path.basename(ALLOWED)}")
        return 0
    if failures:
        print(f"FAILED: {len(failures)} statements on tables sharded by business do not name it "
              f"(listed above; fix them, or add them with a reason to {os.path.basename(ALLOWED)})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
