import { useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { AuthLayout } from '@/components/layout/AuthLayout';
import { TextField } from '@/components/TextField';
import { fieldErrorsOf } from '@/components/form/serverErrors';
import { paymentMethodLabel, periodicityLabel } from '@/lib/club';
import { formatDateBR, todayIso } from '@/lib/dates';
import { onlyDigits } from '@/lib/masks';
import { formatBRL } from '@/lib/money';
import {
  CARD_NUMBER_MAX_LENGTH,
  EXPIRY_LENGTH,
  expiryForTokenizer,
  expiryProblem,
  formatCardNumber,
  formatExpiry,
} from './cardInput';
import {
  CARD_DATA_MISSING,
  CARD_REFUSED_BY_TOKENIZER,
  CardTokenizerError,
  cardDataComplete,
  tokenizeCard,
  type CardData,
} from './cardTokenizer';
import {
  failureMessage,
  linkRefused,
  useCheckoutSummaryQuery,
  useSubscribeMutation,
  type CheckoutPrice,
  type CheckoutSummary,
  type PaymentMethod,
  type SubscribeRequest,
  type SubscribeResponse,
} from './checkoutApi';
import './checkout.css';

export const CARD_UNAVAILABLE = 'Pagamento por cartão indisponível no momento.';
export const LINK_UNUSABLE = 'Este link de assinatura é inválido, expirou ou já foi usado.';
export const BANK_LINE_COPIED = 'Linha digitável copiada!';
export const BANK_LINE_NOT_COPIED = 'Não foi possível copiar. Selecione a linha digitável e copie.';

/** The card as typed: the number grouped, the validity as MM/AA. */
interface CardForm {
  number: string;
  holder: string;
  expiry: string;
  cvv: string;
}

const EMPTY_CARD: CardForm = { number: '', holder: '', expiry: '', cvv: '' };

/** 'O primeiro boleto vence 3 dias após a assinatura.' */
export const firstDueText = (days: number) => `O primeiro boleto vence ${days} ${days === 1 ? 'dia' : 'dias'} após a assinatura.`;

/** The public checkout: the link's plan, then a subscription by one of the methods it accepts. */
export default function CheckoutPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const summary = useCheckoutSummaryQuery(token, { skip: !token });
  const [subscribe, subscription] = useSubscribeMutation();
  const [chosen, setMethod] = useState<PaymentMethod | null>(null);
  // The card lives only here: it goes to the provider's tokenizer, never to Navalha.
  const [card, setCard] = useState<CardForm>(EMPTY_CARD);
  const [expiryError, setExpiryError] = useState<string | null>(null);
  // Why the card was not paid: found before the server is asked, or the operator's refusal.
  const [cardError, setCardError] = useState<string | null>(null);
  const [methodError, setMethodError] = useState<string | null>(null);
  // Any other failure of the subscription (the link used meanwhile, no connection).
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submitting = useRef(false);

  if (!token || (summary.isError && linkRefused(summary.error))) {
    return (
      <AuthLayout title="Assinatura">
        <p role="alert">{LINK_UNUSABLE}</p>
      </AuthLayout>
    );
  }
  if (summary.isError) {
    // The server could not be reached: the link may still be good.
    return (
      <AuthLayout title="Assinatura">
        <div className="checkout-form">
          <p role="alert">{failureMessage(summary.error)}</p>
          <button type="button" className="button button-primary button-block" onClick={() => void summary.refetch()}>
            Tentar novamente
          </button>
        </div>
      </AuthLayout>
    );
  }
  if (!summary.data) {
    return (
      <AuthLayout title="Assinatura">
        <p>Carregando…</p>
      </AuthLayout>
    );
  }
  const plan = summary.data;
  // The server refuses any other method; offering only the plan's keeps the client from a dead end.
  const offered: CheckoutPrice[] = plan.Prices;
  const price = offered.find((option) => option.PaymentMethod === chosen) ?? offered[0];
  const method = price.PaymentMethod;
  const tokenizer = plan.CardTokenizer;
  const cardUnavailable = method === 'creditcard' && !tokenizer;
  const working = busy || subscription.isLoading;

  if (subscription.data) {
    return <SubscribedView plan={plan} answer={subscription.data} method={subscription.originalArgs?.paymentMethod ?? method} />;
  }

  const clearErrors = () => {
    setExpiryError(null);
    setCardError(null);
    setMethodError(null);
    setProblem(null);
  };

  /** The request for the chosen method, or null when the card is not fit to be sent. */
  const request = async (): Promise<SubscribeRequest | null> => {
    if (method !== 'creditcard') return { token, paymentMethod: method };
    if (!tokenizer) return null;
    const expiryWrong = card.expiry ? expiryProblem(card.expiry, todayIso()) : null;
    if (expiryWrong) {
      setExpiryError(expiryWrong);
      return null;
    }
    // Only digits and the tokenizer's 'AAAA-MM' go to the provider.
    const data: CardData = {
      number: onlyDigits(card.number),
      holder: card.holder,
      expiresAt: expiryForTokenizer(card.expiry) ?? '',
      cvv: card.cvv,
    };
    if (!cardDataComplete(data)) {
      setCardError(CARD_DATA_MISSING);
      return null;
    }
    try {
      return { token, paymentMethod: method, card: { hash: await tokenizeCard(tokenizer, data) } };
    } catch (failure) {
      setCardError(failure instanceof CardTokenizerError ? failure.message : CARD_REFUSED_BY_TOKENIZER);
      return null;
    }
  };

  const pay = async () => {
    const body = await request();
    if (!body) return;
    try {
      await subscribe(body).unwrap();
    } catch (failure) {
      // A denied card comes back as a 422 naming `card`: said by the card fields only.
      const fields = fieldErrorsOf(failure);
      if (fields?.card) setCardError(fields.card);
      else if (fields?.paymentMethod) setMethodError(fields.paymentMethod);
      else setProblem(failureMessage(failure));
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // One submission at a time: the button is disabled too, but a fast Enter is not.
    if (submitting.current || cardUnavailable) return;
    submitting.current = true;
    setBusy(true);
    clearErrors();
    try {
      await pay();
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  };

  // Editing the card answers whatever was said about the card before.
  const edit = (key: keyof CardForm, value: string) => {
    setCard({ ...card, [key]: value });
    setCardError(null);
    setProblem(null);
    if (key === 'expiry') setExpiryError(null);
  };

  return (
    <AuthLayout title="Assinatura">
      <PlanSummary plan={plan} price={price} />
      <form onSubmit={submit} noValidate className="checkout-form">
        <fieldset className="checkout-methods" disabled={working}>
          <legend>Forma de pagamento</legend>
          {offered.map((option) => (
            <label key={option.PaymentMethod} className="checkout-method">
              <input
                type="radio"
                name="method"
                checked={method === option.PaymentMethod}
                onChange={() => {
                  setMethod(option.PaymentMethod);
                  clearErrors();
                }}
              />
              <span>
                {paymentMethodLabel(option.PaymentMethod)} · {formatBRL(option.Value)}
              </span>
            </label>
          ))}
          {methodError && (
            <p className="field-error" role="alert">
              {methodError}
            </p>
          )}
          {method === 'boleto' && <p className="muted checkout-note">{firstDueText(plan.FirstDueDays)}</p>}
          {method === 'creditcard' && tokenizer && <p className="muted checkout-note">O cartão é cobrado hoje, na assinatura.</p>}
        </fieldset>
        {method === 'creditcard' &&
          (tokenizer ? (
            <fieldset className="checkout-card" disabled={working} aria-label="Dados do cartão">
              <TextField
                label="Número do cartão"
                inputMode="numeric"
                autoComplete="cc-number"
                maxLength={CARD_NUMBER_MAX_LENGTH}
                value={card.number}
                onChange={(e) => edit('number', formatCardNumber(e.target.value))}
              />
              <TextField
                label="Nome impresso no cartão"
                autoComplete="cc-name"
                value={card.holder}
                onChange={(e) => edit('holder', e.target.value)}
              />
              <div className="checkout-card-row">
                <ExpiryField value={card.expiry} error={expiryError} onChange={(text) => edit('expiry', formatExpiry(text, card.expiry))} />
                <TextField
                  label="CVV"
                  inputMode="numeric"
                  autoComplete="cc-csc"
                  maxLength={4}
                  value={card.cvv}
                  onChange={(e) => edit('cvv', onlyDigits(e.target.value).slice(0, 4))}
                />
              </div>
              {cardError && (
                <p className="field-error" role="alert">
                  {cardError}
                </p>
              )}
            </fieldset>
          ) : (
            <p className="field-error" role="alert">
              {CARD_UNAVAILABLE}
            </p>
          ))}
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={working || cardUnavailable}
          aria-busy={working || undefined}
        >
          {working ? 'Processando…' : 'Assinar'}
        </button>
      </form>
    </AuthLayout>
  );
}

/** The shop, the plan, its price by the chosen method and the services it includes. */
function PlanSummary({ plan, price }: { plan: CheckoutSummary; price: CheckoutPrice }) {
  const servicesId = useId();
  return (
    <section aria-label="Plano" className="checkout-plan">
      {plan.BusinessName && <p className="checkout-shop">{plan.BusinessName}</p>}
      <h2>{plan.PlanName}</h2>
      {plan.User.Name && <p>Olá, {plan.User.Name}!</p>}
      <p>{plan.Description}</p>
      {plan.ItemsDetail && <p>{plan.ItemsDetail}</p>}
      <p>
        <strong>{formatBRL(price.Value)}</strong> · {periodicityLabel(plan.Periodicity)}
        {plan.Quantity > 0 ? ` · ${plan.Quantity} cobranças` : ''}
      </p>
      {plan.Services.length > 0 && (
        <div className="checkout-services">
          <h3 id={servicesId}>Serviços do plano</h3>
          <ul aria-labelledby={servicesId}>
            {plan.Services.map((service, index) => (
              <li key={`${service.Description}-${index}`}>
                <span className="checkout-service-name">{service.Description}</span>
                <span className="checkout-service-price">
                  {service.Discount > 0 && service.OriginalValue > service.Value && (
                    <>
                      {/* Struck through is not read aloud: the words say it. */}
                      <span className="visually-hidden">de </span>
                      <s>{formatBRL(service.OriginalValue)}</s> <span className="visually-hidden">por </span>
                    </>
                  )}
                  <strong>{formatBRL(service.Value)}</strong>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** The validity as printed on the card; TextField keeps its placeholder blank, this one shows 'MM/AA'. */
function ExpiryField({ value, error, onChange }: { value: string; error: string | null; onChange: (text: string) => void }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`field checkout-expiry${error ? ' field-invalid' : ''}`}>
      <div className="field-control">
        <input
          id={id}
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/AA"
          maxLength={EXPIRY_LENGTH}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <label htmlFor={id}>Validade (MM/AA)</label>
      </div>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** 'Assinatura realizada!': what was charged, and for a boleto how to pay it. */
function SubscribedView({ plan, answer, method }: { plan: CheckoutSummary; answer: SubscribeResponse; method: string }) {
  return (
    <AuthLayout title="Assinatura realizada!">
      <div className="checkout-done">
        <p>
          Sua assinatura do plano {plan.PlanName}
          {plan.BusinessName ? ` de ${plan.BusinessName}` : ''} foi registrada.
        </p>
        {method === 'creditcard' ? (
          <p>
            Valor cobrado hoje no cartão: <strong>{formatBRL(answer.Value)}</strong>.
          </p>
        ) : (
          <dl className="checkout-charge">
            <div>
              <dt>Valor</dt>
              <dd>{formatBRL(answer.Value)}</dd>
            </div>
            <div>
              <dt>Vencimento</dt>
              <dd>{formatDateBR(answer.DueDate)}</dd>
            </div>
          </dl>
        )}
        {answer.BoletoBankLine && <BankLine line={answer.BoletoBankLine} />}
        {answer.BoletoPdf && (
          <a className="button button-primary button-block" href={answer.BoletoPdf} target="_blank" rel="noreferrer">
            Abrir boleto
          </a>
        )}
      </div>
    </AuthLayout>
  );
}

/** The boleto's linha digitável, to copy into a bank's app. */
function BankLine({ line }: { line: string }) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(line);
      setCopied(true);
    } catch {
      // No clipboard here (an insecure origin, a refusal): left selected, to copy by hand.
      box.current?.focus();
      box.current?.select();
      setCopied(false);
    }
  };
  return (
    <div className="checkout-bank-line">
      <div className="field">
        <div className="field-control">
          <textarea id={id} ref={box} value={line} readOnly rows={3} placeholder=" " spellCheck={false} />
          <label htmlFor={id}>Linha digitável</label>
        </div>
      </div>
      <button type="button" className="button button-secondary button-block" onClick={() => void copy()}>
        Copiar
      </button>
      <p role="status" className={copied === false ? 'field-error' : 'checkout-copied'}>
        {copied === true ? BANK_LINE_COPIED : copied === false ? BANK_LINE_NOT_COPIED : ''}
      </p>
    </div>
  );
}
