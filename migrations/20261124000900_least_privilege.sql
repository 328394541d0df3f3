-- Least privilege (issue 12; docs/deploy.md, "Database roles"). The role that runs the
-- migrations owns the tables; each service logs in with its own role, which gets only what
-- that service uses:
--   navalha_command    INSERT and SELECT on `events`; its own tables (secrets, claims, ids,
--                      idempotency keys); reads the read models
--   navalha_query      SELECT on the read models, on `events` (audit and as-of replays),
--                      on the public half of the signing key and on `staff_access`
--   navalha_projector  SELECT on `events`; creates and owns the read models (rm_* schemas)
-- Only the owner may alter `events`, so no service can disable its append-only triggers.
--
-- A later migration's new table is command-api's (the default privileges below); one that
-- query-api or the projector reads needs its own GRANT there.
--
-- Idempotent: it may meet roles, grants and read models made by hand or by an earlier layout
-- in which one role did everything.

-- Roles are cluster-wide. Made here without LOGIN when missing (tests, a developer's
-- superuser); a deployment creates them beforehand, with passwords.
do $$
declare
    wanted text;
begin
    foreach wanted in array array['navalha_command', 'navalha_query', 'navalha_projector'] loop
        continue when exists (select 1 from pg_roles where rolname = wanted);
        begin
            execute format('create role %I', wanted);
        exception
            -- Made at the same moment by another database's migration (parallel tests).
            when duplicate_object or unique_violation then null;
            when insufficient_privilege then
                raise exception 'role % is missing and % may not create it', wanted, current_user
                    using hint = 'Create the roles first: docs/deploy.md, "Database roles".';
        end;
    end loop;
end
$$;

-- The event log.
grant select, insert on events to navalha_command;
grant select on events to navalha_query, navalha_projector;

-- command-api's own tables and id sequences, now and in later migrations. Not the migrations'
-- bookkeeping, and not the sequence of `events.global_position` (INSERT covers it).
do $$
declare
    relation regclass;
begin
    for relation in
        select c.oid::regclass
          from pg_class c
         where c.relnamespace = 'public'::regnamespace
           and c.relkind in ('r', 'p', 'S')
           and c.relname not in ('events', '_sqlx_migrations')
           -- identity sequences belong to their table
           and not exists (select 1 from pg_depend d
                            where d.classid = 'pg_class'::regclass and d.objid = c.oid
                              and d.deptype in ('a', 'i'))
           -- nothing an extension made
           and not exists (select 1 from pg_depend d
                            where d.classid = 'pg_class'::regclass and d.objid = c.oid
                              and d.deptype = 'e')
    loop
        if (select relkind from pg_class where oid = relation) = 'S' then
            execute format('grant usage, select on sequence %s to navalha_command', relation);
        else
            execute format('grant select, insert, update, delete on %s to navalha_command', relation);
        end if;
    end loop;
end
$$;
alter default privileges in schema public
    grant select, insert, update, delete on tables to navalha_command;
alter default privileges in schema public
    grant usage, select on sequences to navalha_command;

-- What query-api reads outside the read models: the key that verifies tokens (not the
-- private half) and what a token's bearer may do now (when that table exists).
grant select (signing_key_id, public_key) on signing_key to navalha_query;
do $$
begin
    if to_regclass('staff_access') is not null then
        grant select on staff_access to navalha_query;
    end if;
end
$$;

-- The projector creates a schema per read model, and every schema it creates is readable
-- by both APIs. Setting another role's default privileges takes membership in it: the
-- owner is granted navalha_projector (docs/deploy.md).
do $$
begin
    execute format('grant create on database %I to navalha_projector', current_database());
    alter default privileges for role navalha_projector
        grant usage on schemas to navalha_command, navalha_query;
    alter default privileges for role navalha_projector
        grant select on tables to navalha_command, navalha_query;
exception
    when insufficient_privilege then
        raise exception '% may not set up navalha_projector''s read models: %', current_user, sqlerrm
            using hint = format('As a superuser: grant navalha_projector to %I; and own the database '
                                'the migrations run in (docs/deploy.md, "Database roles").', current_user);
end
$$;

-- Read models built before this migration, by the role that runs it (one role did
-- everything): the projector takes them over, so that it can rebuild and swap them.
do $$
declare
    model name;
    relation regclass;
begin
    for model in
        select nspname from pg_namespace
         where nspname like 'rm\_%'
           and nspowner in (current_user::regrole, 'navalha_projector'::regrole)
    loop
        execute format('alter schema %I owner to navalha_projector', model);
        for relation in
            select c.oid::regclass
              from pg_class c
             where c.relnamespace = model::regnamespace
               and (c.relkind in ('r', 'p', 'v', 'm')
                    or (c.relkind = 'S' and not exists (select 1 from pg_depend d
                                                         where d.classid = 'pg_class'::regclass
                                                           and d.objid = c.oid
                                                           and d.deptype in ('a', 'i'))))
               and c.relowner <> 'navalha_projector'::regrole
        loop
            execute format('alter table %s owner to navalha_projector', relation);
        end loop;
        execute format('grant usage on schema %I to navalha_command, navalha_query', model);
        execute format('grant select on all tables in schema %I to navalha_command, navalha_query', model);
    end loop;
end
$$;
