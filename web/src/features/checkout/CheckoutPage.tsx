import { useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { AuthLayout } from '@/components/layout/AuthLayout';
import { TextField } from '@/components/TextField';
import { fieldErrorsOf } from '@/components/form/serverErrors';
import { paymentMethodLabel, periodicityLabel } from '@/lib/club';
import { formatBRL } from '@/lib/money';
import {
  CARD_DATA_MISSING,
  CARD_REFUSED_BY_TOKENIZER,
  CardTokenizerError,
  cardDataComplete,
  tokenizeCard,
  type CardData,
} from './cardTokenizer';
import { useCheckoutSummaryQuery, useSubscribeMutation, type CheckoutPrice, type PaymentMethod } from './checkoutApi';
import './checkout.css';

export const CARD_UNAVAILABLE = 'Pagamento por cartão indisponível no momento.';

const EMPTY_CARD: CardData = { number: '', holder: '', expiresAt: '', cvv: '' };

/** The public checkout: the link's plan, then a subscription by one of the methods it accepts. */
export default function CheckoutPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const summary = useCheckoutSummaryQuery(token, { skip: !token });
  const [subscribe, subscription] = useSubscribeMutation();
  const [chosen, setMethod] = useState<PaymentMethod | null>(null);
  // The card lives only here: it goes to the provider's tokenizer, never to Navalha.
  const [card, setCard] = useState<CardData>(EMPTY_CARD);
  // A problem found before the server is asked (fields, script, tokenizer).
  const [localCardError, setLocalCardError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submitting = useRef(false);

  if (!token || summary.isError) {
    return (
      <AuthLayout title="Assinatura">
        <p role="alert">Este link de assinatura é inválido, expirou ou já foi usado.</p>
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
  // A refused card comes back as a 422 naming `card`: shown by the card fields.
  const serverErrors = fieldErrorsOf(subscription.error);
  // The last answer's refusal is hidden while a new attempt is under way.
  const cardError = localCardError ?? (busy ? undefined : serverErrors?.card);
  const methodError = serverErrors?.paymentMethod;
  const working = busy || subscription.isLoading;

  if (subscription.data) {
    return (
      <AuthLayout title="Assinatura realizada!">
        <p>Sua assinatura do plano {plan.PlanName} foi registrada.</p>
        {subscription.data.BoletoPdf && (
          <p>
            <a className="button button-primary" href={subscription.data.BoletoPdf} target="_blank" rel="noreferrer">
              Abrir boleto
            </a>
          </p>
        )}
      </AuthLayout>
    );
  }

  const pay = async () => {
    if (method !== 'creditcard') {
      await subscribe({ token, paymentMethod: method });
      return;
    }
    if (!tokenizer) return;
    if (!cardDataComplete(card)) {
      setLocalCardError(CARD_DATA_MISSING);
      return;
    }
    let hash: string;
    try {
      hash = await tokenizeCard(tokenizer, card);
    } catch (failure) {
      setLocalCardError(failure instanceof CardTokenizerError ? failure.message : CARD_REFUSED_BY_TOKENIZER);
      return;
    }
    await subscribe({ token, paymentMethod: method, card: { hash } });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // One submission at a time: the button is disabled too, but a fast Enter is not.
    if (submitting.current || cardUnavailable) return;
    submitting.current = true;
    setBusy(true);
    setLocalCardError(null);
    try {
      await pay();
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  };
  const field = (key: keyof CardData) => ({
    value: card[key],
    onChange: (e: { target: { value: string } }) => {
      setCard({ ...card, [key]: e.target.value });
      // The browser's own complaint is about what was there before.
      setLocalCardError(null);
    },
  });

  return (
    <AuthLayout title="Assinatura">
      <section aria-label="Plano" className="checkout-plan">
        <h2>{plan.PlanName}</h2>
        {plan.User.Name && <p>Olá, {plan.User.Name}!</p>}
        <p>{plan.Description}</p>
        {plan.ItemsDetail && <p>{plan.ItemsDetail}</p>}
        <p>
          <strong>{formatBRL(price.Value)}</strong> · {periodicityLabel(plan.Periodicity)}
          {plan.Quantity > 0 ? ` · ${plan.Quantity} cobranças` : ''}
        </p>
      </section>
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
                  setLocalCardError(null);
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
        </fieldset>
        {method === 'creditcard' &&
          (tokenizer ? (
            <fieldset className="checkout-card" disabled={working} aria-label="Dados do cartão">
              <TextField label="Número do cartão" inputMode="numeric" autoComplete="cc-number" {...field('number')} />
              <TextField label="Nome impresso no cartão" autoComplete="cc-name" {...field('holder')} />
              <TextField label="Validade (AAAA-MM)" autoComplete="cc-exp" {...field('expiresAt')} />
              <TextField label="CVV" inputMode="numeric" autoComplete="cc-csc" {...field('cvv')} />
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
