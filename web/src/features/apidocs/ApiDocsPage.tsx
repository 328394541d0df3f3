import { useEffect, useMemo, useState } from 'react';
import { ToggleGroup } from '@/components/ToggleGroup';
import type { Document, Entry, MediaType, Schema } from './openapi';
import { constraints, groupByTag, matches, refName, resolve, typeLabel } from './openapi';
import './apidocs.css';

type Api = 'command' | 'query';

const APIS: { value: Api; label: string }[] = [
  { value: 'command', label: 'command-api (escrita)' },
  { value: 'query', label: 'query-api (leitura)' },
];

/**
 * `/docs/api`: both OpenAPI documents, as the services build them from their code
 * (docs/api.md), rendered here without any outside script or style, so it works offline.
 */
export default function ApiDocsPage() {
  const [api, setApi] = useState<Api>('command');
  const [documents, setDocuments] = useState<Partial<Record<Api, Document>>>({});
  const [failed, setFailed] = useState(false);
  const [search, setSearch] = useState('');
  const document = documents[api];

  useEffect(() => {
    if (documents[api]) return;
    let live = true;
    setFailed(false);
    fetch(`/api/openapi/${api}.json`)
      .then((answer) => (answer.ok ? (answer.json() as Promise<Document>) : Promise.reject(answer.status)))
      .then((loaded) => live && setDocuments((all) => ({ ...all, [api]: loaded })))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [api, documents]);

  const groups = useMemo(
    () =>
      document
        ? groupByTag(document)
            .map(([tag, entries]) => [tag, entries.filter((entry) => matches(entry, search))] as const)
            .filter(([, entries]) => entries.length > 0)
        : [],
    [document, search],
  );

  return (
    <main className="apidocs">
      <header className="apidocs-header">
        <h1>Documentação da API</h1>
        <p>
          Gerada a partir do código dos serviços. Arquivos:{' '}
          <a href="/api/openapi/command.json">command.json</a> · <a href="/api/openapi/query.json">query.json</a>
        </p>
        <div className="apidocs-controls">
          <ToggleGroup label="API" options={APIS} value={api} onChange={setApi} />
          <input
            className="apidocs-search"
            type="search"
            placeholder="Filtrar por caminho, método ou resumo"
            aria-label="Filtrar operações"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
      </header>
      {failed && <p role="alert">Não foi possível carregar o documento.</p>}
      {!document && !failed && <p>Carregando…</p>}
      {document && (
        <>
          <section className="apidocs-info">
            <h2>
              {document.info.title} <small>v{document.info.version} · OpenAPI {document.openapi}</small>
            </h2>
            {document.info.description && <p>{document.info.description}</p>}
          </section>
          {groups.map(([tag, entries]) => (
            <section key={tag} className="apidocs-tag" aria-label={tag}>
              <h2>{tag}</h2>
              {entries.map((entry) => (
                <OperationView key={`${entry.method} ${entry.path}`} document={document} entry={entry} />
              ))}
            </section>
          ))}
          {groups.length === 0 && <p>Nenhuma operação encontrada.</p>}
        </>
      )}
    </main>
  );
}

function OperationView({ document, entry }: { document: Document; entry: Entry }) {
  const { method, path, operation } = entry;
  const secured = (operation.security ?? []).length > 0;
  const body = firstMedia(operation.requestBody?.content);
  return (
    <details className="apidocs-operation">
      <summary>
        <span className={`apidocs-method apidocs-method-${method}`}>{method.toUpperCase()}</span>
        <code className="apidocs-path">{path}</code>
        <span className="apidocs-summary">{operation.summary}</span>
        {secured && <span className="apidocs-lock" title="Requires a bearer token">token</span>}
      </summary>
      <div className="apidocs-body">
        {operation.description && <p>{operation.description}</p>}
        {operation.parameters && operation.parameters.length > 0 && (
          <>
            <h3>Parâmetros</h3>
            <table className="apidocs-table">
              <thead>
                <tr>
                  <th>Nome</th>
                  <th>Onde</th>
                  <th>Tipo</th>
                  <th>Descrição</th>
                </tr>
              </thead>
              <tbody>
                {operation.parameters.map((parameter) => (
                  <tr key={`${parameter.in} ${parameter.name}`}>
                    <td>
                      <code>{parameter.name}</code>
                      {parameter.required && <span className="apidocs-required"> *</span>}
                    </td>
                    <td>{parameter.in}</td>
                    <td>
                      {typeLabel(parameter.schema)}
                      <Constraints schema={parameter.schema} />
                    </td>
                    <td>{parameter.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
        {operation.requestBody && (
          <>
            <h3>Corpo {body && <small>({body[0]})</small>}</h3>
            {operation.requestBody.description && <p>{operation.requestBody.description}</p>}
            {body && <SchemaView document={document} schema={body[1].schema} depth={0} />}
          </>
        )}
        <h3>Respostas</h3>
        <ul className="apidocs-responses">
          {Object.entries(operation.responses).map(([status, response]) => {
            const media = firstMedia(response.content)?.[1];
            return (
              <li key={status}>
                <span className={`apidocs-status apidocs-status-${status[0]}`}>{status}</span> {response.description}
                {media?.schema && <> · <code>{typeLabel(media.schema)}</code></>}
                {media?.example !== undefined && <pre className="apidocs-example">{JSON.stringify(media.example, null, 2)}</pre>}
                {status.startsWith('2') && media?.schema && (
                  <SchemaView document={document} schema={media.schema} depth={0} />
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </details>
  );
}

function firstMedia(content: Record<string, MediaType> | undefined): [string, MediaType] | undefined {
  return content ? Object.entries(content)[0] : undefined;
}

function Constraints({ schema }: { schema: Schema | undefined }) {
  const notes = constraints(schema);
  return notes.length > 0 ? <span className="apidocs-constraints"> ({notes.join('; ')})</span> : null;
}

/** An object schema's fields, named schemas opened on demand, a few levels deep. */
function SchemaView({ document, schema, depth }: { document: Document; schema: Schema | undefined; depth: number }) {
  const resolved = resolve(document, schema?.items ? schema.items : schema);
  if (!resolved?.properties || depth > 3) return null;
  const required = new Set(resolved.required ?? []);
  return (
    <table className="apidocs-table apidocs-schema">
      <tbody>
        {Object.entries(resolved.properties).map(([name, field]) => {
          const inner = field.items ?? field;
          const nested = inner.$ref ? refName(inner.$ref) : inner.properties ? 'object' : undefined;
          return (
            <tr key={name}>
              <td>
                <code>{name}</code>
                {required.has(name) && <span className="apidocs-required"> *</span>}
              </td>
              <td>
                {typeLabel(field)}
                <Constraints schema={field} />
              </td>
              <td>
                {field.description}
                {nested && (
                  <details>
                    <summary>{nested}</summary>
                    <SchemaView document={document} schema={field} depth={depth + 1} />
                  </details>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
