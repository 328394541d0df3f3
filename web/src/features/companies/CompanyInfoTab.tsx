import { yupResolver } from '@hookform/resolvers/yup';
import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { AddressFields } from '@/components/form/AddressFields';
import { TIME_ZONE_OPTIONS } from './timeZones';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { CheckboxField, SelectField, STATUS_OPTIONS } from '@/components/form/fields';
import { NumberField } from '@/components/NumberField';
import { TextAreaField, TextField } from '@/components/TextField';
import { cnpjCharacters, formatCnpj, formatPhone, maskCep, onlyDigits } from '@/lib/masks';
import { notifyError, notifySuccess } from '@/lib/notify';
import { useCreateCompanyMutation, useGetCompanyQuery, useUpdateCompanyMutation } from './companyApi';
import { useIdempotencyKey } from '@/lib/idempotency';
import { MoneyField } from '@/components/MoneyField';
import {
  CLUB_RULE_OPTIONS,
  COMMISSION_PERIOD_OPTIONS,
  companySchema,
  DISCOUNT_CAP_DEFAULT,
  percentOf,
  percentText,
  EMPTY_COMPANY,
  ONLINE_CUTOFF_MAX,
  ONLINE_DEFAULTS,
  ONLINE_LIMIT_MAX,
  ONLINE_NO_SHOW_LIMIT_MAX,
  type CompanyFormValues,
} from './schemas';
import type { CompanyBody, CompanyDetail } from './types';

const LIST = '/dashboard/company';

/** The saved unit as form values (masks applied, as the user would have typed them). */
export function toFormValues(company: CompanyDetail): CompanyFormValues {
  return {
    name: company.Name ?? '',
    cnpj: formatCnpj(company.Cnpj),
    email: company.Email ?? '',
    phone: formatPhone(company.Phone),
    whatsApp: !!company.WhatsApp,
    status: company.Status === false ? 'false' : 'true',
    facebook: company.Facebook ?? '',
    instagram: company.Instagram ?? '',
    observation: company.Observation ?? '',
    zipCode: maskCep(company.ZipCode ?? ''),
    street: company.Street ?? '',
    number: company.Number ?? '',
    complement: company.Complement ?? '',
    district: company.District ?? '',
    city: company.City ?? '',
    state: company.State || '--',
    // A server from before the rules answers without them: the defaults.
    onlineCancelCutoffHours: company.OnlineCancelCutoffHours ?? ONLINE_DEFAULTS.onlineCancelCutoffHours,
    onlineMaxFutureBookings: company.OnlineMaxFutureBookings ?? ONLINE_DEFAULTS.onlineMaxFutureBookings,
    onlineNewcomerSharePercent: company.OnlineNewcomerSharePercent ?? ONLINE_DEFAULTS.onlineNewcomerSharePercent,
    // Issue 44; a server from before it answers without the limit: none (0).
    onlineNoShowLimit: company.OnlineNoShowLimit ?? ONLINE_DEFAULTS.onlineNoShowLimit,
    // Issue 41; a server from before it answers without the cap: none (100%).
    attendantDiscountCapPercent: company.AttendantDiscountCapPercent ?? DISCOUNT_CAP_DEFAULT,
    // Issue 42; a server from before it answers without them: none.
    cardFeeCreditPercent: percentText(company.CardFeeCreditPercent ?? 0),
    cardFeeDebitPercent: percentText(company.CardFeeDebitPercent ?? 0),
    clubCommissionRule: company.ClubCommissionRule === 'fixed' ? 'fixed' : 'plan',
    clubCommissionFixed: company.ClubCommissionFixed ?? 0,
    commissionPeriod: (['week', 'fortnight'] as const).find((period) => period === company.CommissionPeriod) ?? 'month',
    // Issue 43; a server from before it answers without it: no selling without stock.
    allowNegativeStock: !!company.AllowNegativeStock,
    // Issue 44; a server from before it answers without them: no reminders.
    remindersBefore24h: !!company.RemindersBefore24h,
    remindersBefore2h: !!company.RemindersBefore2h,
    // The zone its address gives shows as 'Automático', so a new address brings its own zone.
    timeZone: company.TimeZoneFromAddress === false ? (company.TimeZone ?? '') : '',
  };
}

/** Spec 02 §7: cnpj, phone and CEP without their masks. */
export function toBody(values: CompanyFormValues): CompanyBody {
  // The address rules are typed loosely (string | undefined).
  const text = (value: string | undefined) => (value ?? '').trim();
  return {
    name: text(values.name),
    cnpj: cnpjCharacters(values.cnpj),
    email: text(values.email),
    phone: onlyDigits(values.phone),
    zipCode: onlyDigits(text(values.zipCode)),
    whatsApp: !!values.whatsApp,
    district: text(values.district),
    state: text(values.state),
    status: values.status === 'true',
    facebook: text(values.facebook),
    instagram: text(values.instagram),
    observation: text(values.observation),
    street: text(values.street),
    number: text(values.number),
    city: text(values.city),
    complement: text(values.complement),
    // The schema let only whole numbers in range through.
    onlineCancelCutoffHours: Number(values.onlineCancelCutoffHours),
    onlineMaxFutureBookings: Number(values.onlineMaxFutureBookings),
    onlineNewcomerSharePercent: Number(values.onlineNewcomerSharePercent),
    onlineNoShowLimit: Number(values.onlineNoShowLimit),
    attendantDiscountCapPercent: Number(values.attendantDiscountCapPercent),
    cardFeeCreditPercent: percentOf(values.cardFeeCreditPercent) ?? 0,
    cardFeeDebitPercent: percentOf(values.cardFeeDebitPercent) ?? 0,
    clubCommissionRule: values.clubCommissionRule,
    clubCommissionFixed: values.clubCommissionRule === 'fixed' ? values.clubCommissionFixed : null,
    commissionPeriod: values.commissionPeriod,
    allowNegativeStock: !!values.allowNegativeStock,
    remindersBefore24h: !!values.remindersBefore24h,
    remindersBefore2h: !!values.remindersBefore2h,
    timeZone: values.timeZone ?? '',
  };
}

export const LINK_COPIED = 'Link copiado.';
export const LINK_NOT_COPIED = 'Não foi possível copiar o link. Copie o endereço mostrado.';

/** The address of a unit's public booking page (issue 18), on this site. */
export const publicPageUrl = (id: number) => `${window.location.origin}/agendar/${id}`;

/** The unit's public page: its address, 'Copiar link' and 'Abrir página' (any role may share it). */
function PublicPageLink({ id }: { id: number }) {
  const url = publicPageUrl(id);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      notifySuccess(LINK_COPIED);
    } catch {
      // No clipboard here (an insecure origin, a refusal): the address is shown to copy by hand.
      notifyError(LINK_NOT_COPIED);
    }
  };
  return (
    <div className="field-wide company-public-link">
      <TextField
        label="Página de agendamento online"
        className="company-public-link-url"
        value={url}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="company-public-link-actions">
        <button type="button" className="button button-secondary" onClick={() => void copy()}>
          Copiar link
        </button>
        <a className="button button-secondary" href={url} target="_blank" rel="noopener noreferrer">
          Abrir página
        </a>
      </div>
    </div>
  );
}

/**
 * 'Barbearia': 'Informações da barbearia', 'Endereço', 'Agendamento online' (the public
 * page's rules, the no-show block among them, and its link), 'Caixa e comandas' (the
 * attendant's discount cap), 'Comissões', 'Estoque' (selling without stock) and 'Lembretes'
 * (WhatsApp reminders before an appointment); saving returns to the list.
 */
export function CompanyInfoTab({ id, canEdit }: { id: number | null; canEdit: boolean }) {
  const navigate = useNavigate();
  const form = useForm<CompanyFormValues>({ resolver: yupResolver(companySchema), defaultValues: EMPTY_COMPANY });
  const { register, formState, reset, control } = form;
  const errors = formState.errors;
  const clubRule = form.watch('clubCommissionRule');
  const { data } = useGetCompanyQuery(id ?? skipToken);
  const [create] = useCreateCompanyMutation();
  const [update] = useUpdateCompanyMutation();
  // A retried request is not a second unit.
  const withKey = useIdempotencyKey();

  useEffect(() => {
    if (data && id !== null) reset(toFormValues(data));
  }, [data, id, reset]);

  const save = async (values: CompanyFormValues) => {
    const body = toBody(values);
    if (id === null) {
      await withKey((idempotencyKey) => create({ body, idempotencyKey }).unwrap());
      notifySuccess('Empresa cadastrada com sucesso!');
    } else {
      await update({ id, body }).unwrap();
      notifySuccess('Informações atualizadas com sucesso!');
    }
    navigate(LIST);
  };

  const disabled = !canEdit;
  return (
    <Form form={form} onSubmit={save} aria-label="Empresa">
      {/* Disables every field for roles that may not edit, the text box included. */}
      <fieldset className="company-fields" disabled={disabled}>
      <FormSection title="Informações da barbearia">
        <TextField label="Nome" disabled={disabled} error={errors.name?.message} {...register('name')} />
        <TextField label="CNPJ" mask="cnpj" autoCapitalize="characters" disabled={disabled} error={errors.cnpj?.message} {...register('cnpj')} />
        <TextField label="E-mail" type="email" disabled={disabled} error={errors.email?.message} {...register('email')} />
        <TextField label="Telefone" mask="phone" type="tel" disabled={disabled} error={errors.phone?.message} {...register('phone')} />
        <SelectField label="Status" options={STATUS_OPTIONS} disabled={disabled} error={errors.status?.message} {...register('status')} />
        <CheckboxField label="WhatsApp" disabled={disabled} {...register('whatsApp')} />
        <TextField label="Facebook" type="url" disabled={disabled} error={errors.facebook?.message} {...register('facebook')} />
        <TextField label="Instagram" type="url" disabled={disabled} error={errors.instagram?.message} {...register('instagram')} />
        <div className="field-wide">
          <Controller
            control={control}
            name="observation"
            render={({ field }) => (
              <TextAreaField label="Observação" value={field.value ?? ''} onChange={field.onChange} />
            )}
          />
        </div>
      </FormSection>
      <FormSection title="Endereço">
        <AddressFields form={form} zipField="zipCode" disabled={disabled} />
        <SelectField
          label="Fuso horário"
          className="field-wide"
          options={TIME_ZONE_OPTIONS}
          disabled={disabled}
          error={errors.timeZone?.message}
          {...register('timeZone')}
        />
      </FormSection>
      </fieldset>
      <FormSection title="Agendamento online">
        {/* Its own fieldset: the page's link below stays usable for the roles that only read. */}
        <fieldset className="field-wide company-online-fields" disabled={disabled}>
          <Controller
            control={control}
            name="onlineCancelCutoffHours"
            render={({ field, fieldState }) => (
              <NumberField
                label="Prazo para cancelar ou remarcar (horas antes do horário)"
                value={field.value ?? ''}
                onChange={field.onChange}
                minValue={0}
                maxValue={ONLINE_CUTOFF_MAX}
                maxLength={2}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="onlineMaxFutureBookings"
            render={({ field, fieldState }) => (
              <NumberField
                label="Agendamentos futuros por cliente"
                value={field.value ?? ''}
                onChange={field.onChange}
                minValue={1}
                maxValue={ONLINE_LIMIT_MAX}
                maxLength={2}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="onlineNewcomerSharePercent"
            render={({ field, fieldState }) => (
              <NumberField
                label="Parte do dia para clientes novos online (%)"
                value={field.value ?? ''}
                onChange={field.onChange}
                minValue={0}
                maxValue={100}
                maxLength={3}
                error={fieldState.error?.message}
              />
            )}
          />
          <div className="company-field-with-hint">
            <Controller
              control={control}
              name="onlineNoShowLimit"
              render={({ field, fieldState }) => (
                <NumberField
                  label="Bloquear agendamento online após (faltas em 90 dias)"
                  value={field.value ?? ''}
                  onChange={field.onChange}
                  minValue={0}
                  maxValue={ONLINE_NO_SHOW_LIMIT_MAX}
                  maxLength={2}
                  error={fieldState.error?.message}
                />
              )}
            />
            <p className="muted company-hours-hint">0 não bloqueia</p>
          </div>
        </fieldset>
        {id !== null && <PublicPageLink id={id} />}
      </FormSection>
      <FormSection title="Caixa e comandas">
        <fieldset className="field-wide company-online-fields" disabled={disabled}>
          <div className="company-field-with-hint">
            <Controller
              control={control}
              name="attendantDiscountCapPercent"
              render={({ field, fieldState }) => (
                <NumberField
                  label="Desconto máximo do atendente (%)"
                  value={field.value ?? ''}
                  onChange={field.onChange}
                  minValue={0}
                  maxValue={100}
                  maxLength={3}
                  error={fieldState.error?.message}
                />
              )}
            />
            <p className="muted company-hours-hint">
              Quanto um atendente pode dar de desconto numa comanda. 100% = sem limite.
            </p>
          </div>
        </fieldset>
      </FormSection>
      <FormSection title="Comissões">
        <fieldset className="field-wide company-online-fields" disabled={disabled}>
          <TextField
            label="Taxa da maquininha no crédito (%)"
            inputMode="decimal"
            error={errors.cardFeeCreditPercent?.message}
            {...register('cardFeeCreditPercent')}
          />
          <TextField
            label="Taxa da maquininha no débito (%)"
            inputMode="decimal"
            error={errors.cardFeeDebitPercent?.message}
            {...register('cardFeeDebitPercent')}
          />
          <SelectField
            label="Serviços cobertos pelo clube"
            options={CLUB_RULE_OPTIONS}
            error={errors.clubCommissionRule?.message}
            {...register('clubCommissionRule')}
          />
          {clubRule === 'fixed' && (
            <Controller
              control={control}
              name="clubCommissionFixed"
              render={({ field, fieldState }) => (
                <MoneyField
                  label="Valor fixo por serviço do clube"
                  value={field.value ?? 0}
                  onChange={field.onChange}
                  error={fieldState.error?.message}
                />
              )}
            />
          )}
          <SelectField
            label="Período usual de comissão"
            options={COMMISSION_PERIOD_OPTIONS}
            error={errors.commissionPeriod?.message}
            {...register('commissionPeriod')}
          />
          <p className="muted company-hours-hint field-wide">
            A taxa da maquininha só é descontada da comissão de quem a divide (aba Comissões do profissional).
          </p>
        </fieldset>
      </FormSection>
      <FormSection title="Estoque">
        <fieldset className="field-wide company-online-fields" disabled={disabled}>
          <div className="company-field-with-hint">
            <CheckboxField label="Permitir vender sem estoque (estoque negativo)" {...register('allowNegativeStock')} />
            <p className="muted company-hours-hint">
              Desmarcado, a unidade não vende mais do que tem em estoque.
            </p>
          </div>
        </fieldset>
      </FormSection>
      <FormSection title="Lembretes">
        <fieldset className="field-wide company-online-fields" disabled={disabled}>
          <CheckboxField label="Lembrete 24 horas antes" {...register('remindersBefore24h')} />
          <CheckboxField label="Lembrete 2 horas antes" {...register('remindersBefore2h')} />
          <p className="muted company-hours-hint field-wide">
            Enviados por WhatsApp aos clientes que aceitam WhatsApp, com os botões Confirmar e Cancelar.
          </p>
        </fieldset>
      </FormSection>
      <FormButtons>
        <button type="button" className="button button-secondary" onClick={() => navigate(LIST)}>
          Cancelar
        </button>
        <button type="submit" className="button button-primary" disabled={disabled || formState.isSubmitting}>
          Salvar
        </button>
      </FormButtons>
    </Form>
  );
}
