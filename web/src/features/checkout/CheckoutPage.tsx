import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { AuthLayout } from '@/components/layout/AuthLayout';
import { TextField } from '@/components/TextField';
import { fieldErrorsOf } from '@/components/form/serverErrors';
import { paymentMethodLabel, periodicityLabel } from '@/lib/club';
import { formatBRL } from '@/lib/money';
import { useCheckoutSummaryQuery, useSubscribeMutation, type PaymentMethod } from './checkoutApi';

/** The public checkout: the link's plan, then a subscription by the method the plan accepts. */
export default function CheckoutPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const summary = useCheckoutSummaryQuery(token, { skip: !token });
  const [subscribe, subscription] = useSubscribeMutation();
  const [chosen, setMethod] = useState<PaymentMethod | null>(null);
  const [card, setCard] = useState({ number: '', holder: '', expiresAt: '', cvv: '' });

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
  const offered: PaymentMethod[] = [plan.PaymentMethod];
  const method = chosen && offered.includes(chosen) ? chosen : offered[0];
  // A refused card (or bad card data) comes back as a 422 naming `card`: shown by the card fields.
  const cardError = fieldErrorsOf(subscription.error)?.card;

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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void subscribe({ token, paymentMethod: method, card: method === 'creditcard' ? card : undefined });
  };
  const field = (key: keyof typeof card) => ({
    value: card[key],
    onChange: (e: { target: { value: string } }) => setCard({ ...card, [key]: e.target.value }),
  });

  return (
    <AuthLayout title="Assinatura">
      <section aria-label="Plano">
        <h2>{plan.PlanName}</h2>
        {plan.User.Name && <p>Olá, {plan.User.Name}!</p>}
        <p>{plan.Description}</p>
        {plan.ItemsDetail && <p>{plan.ItemsDetail}</p>}
        <p>
          <strong>{formatBRL(plan.Value)}</strong> · {periodicityLabel(plan.Periodicity)}
          {plan.Quantity > 0 ? ` · ${plan.Quantity} cobranças` : ''}
        </p>
      </section>
      <form onSubmit={submit} noValidate>
        <fieldset>
          <legend>Forma de pagamento</legend>
          {offered.map((option) => (
            <label key={option}>
              <input type="radio" name="method" checked={method === option} onChange={() => setMethod(option)} />
              {paymentMethodLabel(option)}
            </label>
          ))}
        </fieldset>
        {method === 'creditcard' && (
          <>
            <TextField label="Número do cartão" inputMode="numeric" autoComplete="cc-number" {...field('number')} />
            <TextField label="Nome impresso no cartão" autoComplete="cc-name" {...field('holder')} />
            <TextField label="Validade (AAAA-MM)" autoComplete="cc-exp" {...field('expiresAt')} />
            <TextField label="CVV" inputMode="numeric" autoComplete="cc-csc" {...field('cvv')} />
            {cardError && (
              <p className="field-error" role="alert">
                {cardError}
              </p>
            )}
          </>
        )}
        <button type="submit" className="button button-primary button-block" disabled={subscription.isLoading}>
          Assinar
        </button>
      </form>
    </AuthLayout>
  );
}
