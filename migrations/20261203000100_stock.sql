-- Stock (issue 43; docs/money.md 'Stock'). Every event that changes a count carries its
-- `stock_moves` (`[{product_id, company_id, quantity, allow_negative}]`, quantities signed):
-- a product's 'Entrada', 'Uso interno', 'Ajuste' and 'Transferência', a comanda's close
-- ('Venda') and its reopening (the sale given back). This table keeps each unit's count in
-- the append's own transaction, as `appointment_slot` keeps the agenda's slots, so that two
-- desks selling the last pomade at once cannot both succeed where the unit does not allow
-- negative stock: the second's count goes below zero and its append is refused (NV409).
-- The read model `rm_product.stock_level` holds the same counts with their value at cost.
create table stock_count
(
    product_id  bigint not null,
    company_id  bigint not null,
    business_id bigint not null,
    quantity    bigint not null,
    primary key (product_id, company_id)
);

-- Moves in product then unit order: two appends that touch the same counts lock them in the
-- same order, so they wait for each other instead of deadlocking.
create function events_count_stock() returns trigger
    language plpgsql as
$$
declare
    move jsonb;
    left_now bigint;
begin
    for move in
        select value from jsonb_array_elements(new.payload -> new.event_type -> 'stock_moves')
         order by (value ->> 'product_id')::bigint, (value ->> 'company_id')::bigint
    loop
        insert into stock_count (product_id, company_id, business_id, quantity)
        values ((move ->> 'product_id')::bigint, (move ->> 'company_id')::bigint,
                (new.metadata ->> 'business_id')::bigint, (move ->> 'quantity')::bigint)
        on conflict (product_id, company_id) do update
            set quantity = stock_count.quantity + excluded.quantity
        returning quantity into left_now;
        if (move ->> 'quantity')::bigint < 0 and left_now < 0
           and not coalesce((move ->> 'allow_negative')::boolean, false) then
            raise exception 'not enough of product % at company %', move ->> 'product_id', move ->> 'company_id'
                using errcode = 'NV409';
        end if;
    end loop;
    return new;
end
$$;

create trigger events_stock
    after insert on events
    for each row
    when (jsonb_typeof(new.payload -> new.event_type -> 'stock_moves') = 'array')
    execute function events_count_stock();
