import { useEffect, useState } from 'react';
import { Paginator } from '@/components/Paginator';
import { TextField } from '@/components/TextField';
import { useNarrowScreen } from '@/components/useNarrowScreen';
import { formatCpf, formatPhone } from '@/lib/masks';
import { useAppSelector } from '@/state/hooks';
import { selectRoleType } from '@/state/sessionSlice';
import { useSearchClientsQuery } from '../api/agendaApi';
import { useDebounced } from '../hooks/hooks';
import { mayRegisterClients } from '../model/quickClient';
import type { ClientItem } from '../model/types';
import { NoShowBadge } from './NoShowBadge';
import { QuickClientForm } from './QuickClientForm';
import './ClientSearch.css';

/** Client search page size (spec 01 §9). */
export const CLIENT_PAGE_SIZE = 5;
/** Active clients only (spec 01 §9 'Client list default status filter'). */
export const CLIENT_STATUS_ACTIVE = 1;
export const NEW_CLIENT_PATH = '/dashboard/client/new';

/** Opens the client registration in a new tab, keeping the modal as it is (roles that cannot register in place). */
export const openNewClient = () => window.open(NEW_CLIENT_PATH, '_blank', 'noopener');

interface ClientSearchProps {
  selected: number | null;
  onSelect: (client: ClientItem) => void;
}

/**
 * Search by name, CPF or phone; Nome, E-mail, CPF, Telefone; 5 per page. At 700 px or less
 * each client is one compact row: the name, then CPF · Telefone, then the e-mail when there is
 * one. 'Novo cliente' registers one in place for the roles the server lets (issue 45) and
 * chooses it; for the others it opens the registration in a new tab, as before. A client who
 * missed appointments in the last 90 days has '2 faltas' by the name (issue 44).
 */
export function ClientSearch({ selected, onSelect }: ClientSearchProps) {
  const inline = mayRegisterClients(useAppSelector(selectRoleType));
  const narrow = useNarrowScreen();
  const [text, setText] = useState('');
  const [creating, setCreating] = useState(false);
  const search = useDebounced(text.trim(), 300);
  const [page, setPage] = useState(1);
  // A new search starts at the first page.
  useEffect(() => setPage(1), [search]);
  const { data, isFetching } = useSearchClientsQuery({
    page,
    pageSize: CLIENT_PAGE_SIZE,
    search,
    status: CLIENT_STATUS_ACTIVE,
  });
  const clients = data?.content ?? [];

  if (creating) {
    return (
      <div className="client-search">
        <QuickClientForm
          search={text}
          onCancel={() => setCreating(false)}
          onCreated={(client) => {
            setCreating(false);
            // The list shows the new client, chosen.
            setText(client.Name);
            onSelect(client);
          }}
        />
      </div>
    );
  }

  const columns = narrow ? 2 : 5;
  return (
    <div className="client-search">
      <div className="client-search-bar">
        <TextField
          label="Buscar cliente"
          variant="search"
          value={text}
          autoComplete="off"
          onChange={(event) => setText(event.target.value)}
        />
        <button
          type="button"
          className="button button-secondary"
          onClick={inline ? () => setCreating(true) : openNewClient}
        >
          Novo cliente
        </button>
      </div>
      <div className="table-wrap">
        <table className={`table${narrow ? ' client-search-compact' : ''}`} aria-busy={isFetching}>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Selecionar</span>
              </th>
              {narrow ? (
                <th scope="col">
                  <span className="visually-hidden">Cliente</span>
                </th>
              ) : (
                <>
                  <th scope="col">Nome</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">CPF</th>
                  <th scope="col">Telefone</th>
                </>
              )}
            </tr>
          </thead>
          <tbody>
            {data && clients.length === 0 && (
              <tr>
                <td colSpan={columns} className="table-empty">
                  Nenhum usuário encontrado
                </td>
              </tr>
            )}
            {clients.map((client) => (
              <tr
                key={client.IdUser}
                className={`table-row-selectable${client.IdUser === selected ? ' table-row-selected' : ''}`}
                aria-selected={client.IdUser === selected}
                onClick={() => onSelect(client)}
              >
                <td>
                  <input
                    type="radio"
                    name="client"
                    aria-label={`Selecionar ${client.Name}`}
                    checked={client.IdUser === selected}
                    onChange={() => onSelect(client)}
                  />
                </td>
                {narrow ? (
                  <td>
                    <div className="client-search-card">
                      <span className="client-search-name">
                        {client.Name}
                        <NoShowBadge client={client} />
                      </span>
                      <span className="client-search-detail">{compactDocuments(client)}</span>
                      {client.Email && <span className="client-search-detail">{client.Email}</span>}
                    </div>
                  </td>
                ) : (
                  <>
                    <td>
                      {client.Name}
                      <NoShowBadge client={client} />
                    </td>
                    <td>{client.Email || '-'}</td>
                    <td>{formatCpf(client.Cpf) || '-'}</td>
                    <td>{formatPhone(client.Phone) || '-'}</td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data && data.total > 0 && (
        <Paginator page={page} pageSize={CLIENT_PAGE_SIZE} total={data.total} onPage={setPage} />
      )}
    </div>
  );
}

/** 'CPF · Telefone' of the compact row; either alone when the other is missing, '-' for neither. */
export function compactDocuments(client: Pick<ClientItem, 'Cpf' | 'Phone'>): string {
  return [formatCpf(client.Cpf), formatPhone(client.Phone)].filter(Boolean).join(' · ') || '-';
}
