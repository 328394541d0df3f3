import { useId, type ReactNode } from 'react';
import { formatBRL } from '@/lib/money';
import { EntriesChart } from './EntriesChart';
import {
  countText,
  CARD_MACHINE_HINT,
  DIFFERENCE_CLASS,
  DIFFERENCE_HINT,
  differenceText,
  differenceTone,
  entriesTotal,
  entryRows,
  methodLabel,
  movementLabel,
  professionalName,
  sum,
  type DifferenceTone,
} from './model';
import type { CaixaFigures, UnitProfessional } from './types';

/** A difference, signed and coloured (red when cash is missing), with its meaning in words. */
export function Difference({ value, hints = DIFFERENCE_HINT }: { value: number; hints?: Record<DifferenceTone, string> }) {
  const tone = differenceTone(value);
  return (
    <span className={`caixa-difference ${DIFFERENCE_CLASS[tone]}`}>
      <span className="caixa-money">{differenceText(value)}</span>{' '}
      <span className="caixa-difference-hint">({hints[tone]})</span>
    </span>
  );
}

interface CardProps {
  title: string;
  level: 2 | 3;
  children: ReactNode;
}

/** A titled card holding one table of the figures. */
function Card({ title, level, children }: CardProps) {
  const id = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className="caixa-card" aria-labelledby={id}>
      <Heading id={id} className="caixa-card-title">
        {title}
      </Heading>
      {children}
    </section>
  );
}

interface RowProps {
  label: ReactNode;
  children: ReactNode;
  /** A middle cell (a count, a reason). */
  detail?: ReactNode;
  changed?: boolean;
  total?: boolean;
}

function Row({ label, detail, children, changed, total }: RowProps) {
  const classes = [changed && 'caixa-changed', total && 'caixa-total'].filter(Boolean).join(' ');
  return (
    <tr className={classes || undefined}>
      <th scope="row">
        {label}
        {changed && <span className="visually-hidden"> (alterado depois do fechamento)</span>}
      </th>
      {detail !== undefined && <td className="caixa-detail">{detail}</td>}
      <td className="caixa-value">{children}</td>
    </tr>
  );
}

const money = (value: number) => <span className="caixa-money">{formatBRL(value)}</span>;

interface CaixaFiguresViewProps {
  figures: CaixaFigures;
  professionals: UnitProfessional[] | undefined;
  /** The cards' heading level under the page's (or the column's) heading. */
  level?: 2 | 3;
  /** Keys of the figures a correction moved since the close (model.changedFigures). */
  changed?: Set<string>;
  /** The entries drawn as bars too (the report). */
  chart?: boolean;
}

/**
 * A caixa's figures: the cash in the drawer (float, cash taken, reforços, sangrias, expected,
 * counted and difference), the entries per method, the sangrias and reforços, and the tips per
 * professional.
 */
export function CaixaFiguresView({ figures, professionals, level = 2, changed, chart = false }: CaixaFiguresViewProps) {
  const is = (key: string) => changed?.has(key) ?? false;
  const entries = entryRows(figures.Entries);
  return (
    <div className="caixa-figures">
      <Card title="Dinheiro no caixa" level={level}>
        <table className="caixa-table">
          <tbody>
            <Row label="Fundo de troco" changed={is('OpeningCash')}>
              {money(figures.OpeningCash)}
            </Row>
            <Row label="Recebido em dinheiro" changed={is('CashTaken')}>
              {money(figures.CashTaken)}
            </Row>
            <Row label="Reforços" changed={is('Reforcos')}>
              {money(figures.Reforcos)}
            </Row>
            <Row label="Sangrias" changed={is('Sangrias')}>
              {money(figures.Sangrias)}
            </Row>
            <Row label="Dinheiro esperado" changed={is('ExpectedCash')} total>
              {money(figures.ExpectedCash)}
            </Row>
            {figures.CountedCash != null && (
              <Row label="Dinheiro contado" changed={is('CountedCash')}>
                {money(figures.CountedCash)}
              </Row>
            )}
            {figures.Difference != null && (
              <Row label="Diferença" changed={is('Difference')} total>
                <Difference value={figures.Difference} />
              </Row>
            )}
          </tbody>
        </table>
      </Card>

      <Card title="Entradas por forma de pagamento" level={level}>
        <table className="caixa-table">
          <tbody>
            {entries.map((entry) => (
              <Row
                key={entry.Method}
                label={methodLabel(entry.Method)}
                detail={countText(entry.Count)}
                changed={is(`entry:${entry.Method}`)}
              >
                {money(entry.Value)}
              </Row>
            ))}
            <Row label="Total recebido" detail="" total>
              {money(entriesTotal(entries))}
            </Row>
          </tbody>
        </table>
        {chart && <EntriesChart entries={figures.Entries} />}
      </Card>

      {figures.CardMachine.length > 0 && (
        <Card title="Maquininha de cartão" level={level}>
          <table className="caixa-table">
            <tbody>
              {figures.CardMachine.map((count) => (
                <Row
                  key={count.Method}
                  label={methodLabel(count.Method)}
                  detail={`Pagamentos ${formatBRL(count.Expected)} · Maquininha ${formatBRL(count.Counted)}`}
                  changed={is(`machine:${count.Method}`)}
                >
                  <Difference value={count.Difference} hints={CARD_MACHINE_HINT} />
                </Row>
              ))}
            </tbody>
          </table>
        </Card>
      )}

      <Card title="Sangrias e reforços" level={level}>
        {figures.Movements.length === 0 ? (
          <p className="caixa-empty">Nenhuma sangria ou reforço.</p>
        ) : (
          <table className="caixa-table">
            <tbody>
              {figures.Movements.map((movement, index) => (
                <Row key={index} label={movementLabel(movement.Kind)} detail={movement.Reason}>
                  <span className="caixa-money">
                    {movement.Kind === 'sangria' ? '−' : '+'}
                    {formatBRL(movement.Value)}
                  </span>
                </Row>
              ))}
            </tbody>
          </table>
        )}
      </Card>

      <Card title="Gorjetas" level={level}>
        {figures.Tips.length === 0 ? (
          <p className="caixa-empty">Nenhuma gorjeta.</p>
        ) : (
          <table className="caixa-table">
            <tbody>
              {figures.Tips.map((tip) => (
                <Row key={tip.IdProfessional} label={professionalName(professionals, tip.IdProfessional)} changed={is(`tip:${tip.IdProfessional}`)}>
                  {money(tip.Value)}
                </Row>
              ))}
              <Row label="Total de gorjetas" total>
                {money(sum(figures.Tips.map((tip) => tip.Value)))}
              </Row>
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}
