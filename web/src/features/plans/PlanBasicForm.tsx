import { yupResolver } from '@hookform/resolvers/yup';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useMemberCompanies } from '@/api/companiesApi';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { CheckboxField, ReadOnlyField, SelectField } from '@/components/form/fields';
import { Icon } from '@/components/Icon';
import { MoneyField } from '@/components/MoneyField';
import { NumberField } from '@/components/NumberField';
import { TextField } from '@/components/TextField';
import { paymentMethodLabel, PERIODICITIES, PLAN_PAYMENT_METHODS, PLAN_STATUS_OPTIONS } from '@/lib/club';
import { useIdempotencyKey } from '@/lib/idempotency';
import { notifySuccess } from '@/lib/notify';
import { MultiSelect } from '@/components/form/MultiSelect';
import { planPath, PLANS_PATH } from './paths';
import { useCreatePlanMutation, useGetPartnerCompaniesQuery, useUpdatePlanMutation } from './plansApi';
import {
  EMPTY_PLAN,
  imageRefusal,
  otherMethodOf,
  PLAN_DESCRIPTION_MAX,
  PLAN_IMAGE_TYPES,
  PLAN_NAME_MAX,
  planFormData,
  planSchema,
  planValues,
  type PlanFormValues,
} from './schema';
import type { PlanDetail } from './types';

export const CREATED_MESSAGE = 'Plano de assinatura crido com sucesso!';
export const UPDATED_MESSAGE = 'Plano de assinatura atualizado com sucesso!';

const PAYMENT_OPTIONS = [{ value: '', label: 'Selecione' }, ...PLAN_PAYMENT_METHODS];

/** The server names the other method's price `prices` (docs/club.md). */
const SERVER_FIELDS = { prices: 'otherValue' };

/** 'Dados básicos': the plan's fields, its units and partners, 'Divulgação' and 'Integração'. */
export function PlanBasicForm({ plan, canEdit }: { plan: PlanDetail | null; canEdit: boolean }) {
  const navigate = useNavigate();
  const companies = useMemberCompanies();
  const { data: partners } = useGetPartnerCompaniesQuery();
  const [createPlan] = useCreatePlanMutation();
  const [updatePlan] = useUpdatePlanMutation();
  // A retried request is not a second plan.
  const withKey = useIdempotencyKey();
  const form = useForm<PlanFormValues>({
    resolver: yupResolver(planSchema) as never,
    defaultValues: plan ? planValues(plan) : EMPTY_PLAN,
  });
  const {
    register,
    control,
    watch,
    setValue,
    clearErrors,
    formState: { errors, isSubmitting, isSubmitted },
  } = form;
  const allCompanies = watch('allCompanies');
  const infiniteCharge = watch('infiniteCharge');
  const otherMethod = otherMethodOf(watch('paymentMethod'));
  const acceptsOther = watch('acceptsOther');
  // Once the provider knows the plan its charging terms are fixed there: the 'Integração'
  // fields are shown, not edited. A plan not yet at the provider may still change them.
  const atProvider = plan?.GalaxPayId != null;

  // The image: a picked file (sent as `file`) or the saved one, which may be removed.
  const [picked, setPicked] = useState<{ file: File; url: string } | null>(null);
  const [excluded, setExcluded] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  useEffect(() => () => (picked ? URL.revokeObjectURL(picked.url) : undefined), [picked]);
  const preview = picked?.url ?? (!excluded && plan?.UrlImage ? plan.UrlImage : null);

  const pick = (file: File | undefined) => {
    if (!file) return;
    const refusal = imageRefusal(file);
    setRefused(refusal);
    if (refusal) return;
    setPicked({ file, url: URL.createObjectURL(file) });
  };
  const removeImage = () => {
    setPicked(null);
    setRefused(null);
    if (plan?.UrlImage) setExcluded(true);
  };

  // The units the user may see; a plan's unit the list lacks still shows by its name.
  const companyOptions = [
    ...(companies ?? []).map((company) => ({
      value: company.IdCompany,
      label: company.Name,
      detail: company.City ? `${company.City} - ${company.State}` : undefined,
    })),
    ...(plan?.companiesList ?? [])
      .filter(({ Company }) => !(companies ?? []).some((c) => c.IdCompany === Company.IdCompany))
      .map(({ Company }) => ({ value: Company.IdCompany, label: Company.Name })),
  ];
  const partnerOptions = (partners ?? []).map((partner) => ({ value: partner.IdPartnerCompany, label: partner.Name }));

  const save = async (values: PlanFormValues) => {
    const body = planFormData(values, plan?.IdSubscriptionDetail ?? null, { file: picked?.file ?? null, exclude: excluded }, plan?.ItemsDetail ?? '');
    if (plan) {
      await updatePlan({ id: plan.IdSubscriptionDetail, body }).unwrap();
      notifySuccess(UPDATED_MESSAGE);
      setPicked(null);
      setExcluded(false);
      return;
    }
    const created = await withKey((idempotencyKey) => createPlan({ body, idempotencyKey }).unwrap());
    notifySuccess(CREATED_MESSAGE);
    navigate(planPath(created.IdSubscriptionDetail), { replace: true });
  };

  const validate = { shouldValidate: isSubmitted };

  return (
    <Form form={form} onSubmit={save} serverFieldOf={SERVER_FIELDS} aria-label="Dados básicos do plano">
      {/* Only ADMIN creates or edits plans; the others read them (spec 02 §6). */}
      <fieldset className="plan-fields" disabled={!canEdit}>
        <FormSection title="Plano">
          <TextField
            label="Nome do plano"
            className="field-wide"
            autoComplete="off"
            maxLength={PLAN_NAME_MAX}
            error={errors.planName?.message}
            {...register('planName')}
          />
          <TextField
            label="Descrição"
            className="field-wide"
            autoComplete="off"
            maxLength={PLAN_DESCRIPTION_MAX}
            error={errors.description?.message}
            {...register('description')}
          />
          <Controller
            control={control}
            name="value"
            render={({ field, fieldState }) => (
              // The price is a charging term too: fixed once the provider has the plan.
              <MoneyField label="Valor" value={field.value} onChange={field.onChange} error={fieldState.error?.message} disabled={!canEdit || atProvider} />
            )}
          />
          <Controller
            control={control}
            name="discount"
            render={({ field, fieldState }) => (
              <NumberField
                label="Desconto (%)"
                value={field.value}
                onChange={field.onChange}
                minValue={0}
                maxValue={100}
                maxLength={3}
                error={fieldState.error?.message}
              />
            )}
          />
          <SelectField label="Status" options={PLAN_STATUS_OPTIONS} error={errors.status?.message} {...register('status')} />
        </FormSection>

        <FormSection title="Vigência">
          <TextField label="Início da vigência" type="date" max="9999-12-31" error={errors.validityStart?.message} {...register('validityStart')} />
          <TextField label="Fim da vigência" type="date" max="9999-12-31" error={errors.validityEnd?.message} {...register('validityEnd')} />
        </FormSection>

        <FormSection title="Empresas">
          <CheckboxField
            label="Todas as empresas"
            className="field-wide"
            {...register('allCompanies', {
              // Every unit clears the chosen ones (spec 02 §5).
              onChange: (event) => {
                if (event.target.checked) setValue('companies', [], validate);
              },
            })}
          />
          {!allCompanies && (
            <div className="field-wide">
              <Controller
                control={control}
                name="companies"
                render={({ field, fieldState }) => (
                  <MultiSelect
                    label="Empresas"
                    options={companyOptions}
                    value={field.value}
                    onChange={(chosen) => {
                      // Choosing every unit is 'Todas as empresas' (spec 02 §5).
                      if (companyOptions.length > 0 && chosen.length === companyOptions.length) {
                        setValue('allCompanies', true);
                        field.onChange([]);
                        clearErrors('companies');
                      } else {
                        field.onChange(chosen);
                      }
                    }}
                    disabled={!canEdit}
                    error={fieldState.error?.message}
                  />
                )}
              />
            </div>
          )}
          <div className="field-wide">
            <Controller
              control={control}
              name="partnerCompanies"
              render={({ field }) => (
                <MultiSelect
                  label="Empresas parceiras"
                  options={partnerOptions}
                  value={field.value}
                  onChange={field.onChange}
                  disabled={!canEdit}
                />
              )}
            />
          </div>
        </FormSection>

        <FormSection title="Divulgação">
          <div className="field-wide plan-image">
            <div className="plan-image-preview">
              {preview ? <img src={preview} alt="Imagem do plano" /> : <span className="muted">Nenhuma imagem</span>}
            </div>
            {canEdit && (
              <div className="plan-image-actions">
                <label className="button button-secondary plan-image-pick">
                  {preview ? 'Trocar imagem' : 'Escolher imagem'}
                  <input
                    type="file"
                    accept={PLAN_IMAGE_TYPES.join(',')}
                    className="visually-hidden"
                    onChange={(event) => {
                      pick(event.target.files?.[0]);
                      event.target.value = '';
                    }}
                  />
                </label>
                {preview && (
                  <button type="button" className="button button-secondary" onClick={removeImage}>
                    <Icon name="delete" /> Remover imagem
                  </button>
                )}
                <p className="muted plan-image-hint">JPEG, PNG ou WebP, até 5 MB.</p>
              </div>
            )}
            {refused && (
              <p className="field-error" role="alert">
                {refused}
              </p>
            )}
          </div>
          <TextField label="Início da divulgação" type="date" max="9999-12-31" error={errors.advertisingStart?.message} {...register('advertisingStart')} />
          <TextField label="Fim da divulgação" type="date" max="9999-12-31" error={errors.advertisingEnd?.message} {...register('advertisingEnd')} />
        </FormSection>

        <FormSection title="Integração">
          {atProvider && (
            <p className="muted field-wide plan-integration-note">
              O plano já está no provedor de pagamentos: a cobrança não pode mais ser alterada.
            </p>
          )}
          <ReadOnlyField label="ID no GalaxPay" value={plan?.GalaxPayId != null ? String(plan.GalaxPayId) : 'Ainda não enviado'} />
          <fieldset className="plan-fieldset-contents" disabled={atProvider}>
            <CheckboxField
              label="Cobrança infinita"
              {...register('infiniteCharge', {
                onChange: (event) => {
                  if (event.target.checked) {
                    setValue('quantity', '');
                    clearErrors('quantity');
                  }
                },
              })}
            />
            <fieldset className="plan-fieldset-contents" disabled={infiniteCharge}>
              <Controller
                control={control}
                name="quantity"
                render={({ field, fieldState }) => (
                  <NumberField
                    label="Quantidade de cobranças"
                    value={infiniteCharge ? '' : field.value}
                    onChange={field.onChange}
                    minValue={0}
                    maxValue={100}
                    maxLength={3}
                    error={fieldState.error?.message}
                  />
                )}
              />
            </fieldset>
            <SelectField label="Periodicidade" options={PERIODICITIES} error={errors.periodicity?.message} {...register('periodicity')} />
            <SelectField
              label="Forma de pagamento"
              options={PAYMENT_OPTIONS}
              error={errors.paymentMethod?.message}
              {...register('paymentMethod')}
            />
            {/* The other method, with its own price: offered once a main method is chosen. */}
            {otherMethod && (
              <CheckboxField
                label={`Aceitar também ${paymentMethodLabel(otherMethod)}`}
                {...register('acceptsOther', {
                  onChange: (event) => {
                    if (!event.target.checked) clearErrors('otherValue');
                  },
                })}
              />
            )}
            {otherMethod && acceptsOther && (
              <Controller
                control={control}
                name="otherValue"
                render={({ field, fieldState }) => (
                  <MoneyField
                    label={`Valor no ${paymentMethodLabel(otherMethod)}`}
                    value={field.value}
                    onChange={field.onChange}
                    error={fieldState.error?.message}
                    disabled={!canEdit || atProvider}
                  />
                )}
              />
            )}
          </fieldset>
          {/* Navalha dates each new subscriber's first boleto: editable even once the provider has the plan. */}
          <Controller
            control={control}
            name="firstDueDays"
            render={({ field, fieldState }) => (
              <NumberField
                label="Vencimento do primeiro boleto (dias)"
                value={field.value}
                onChange={field.onChange}
                maxLength={2}
                error={fieldState.error?.message}
              />
            )}
          />
        </FormSection>
      </fieldset>
      <FormButtons>
        <Link className="button button-secondary" to={PLANS_PATH}>
          Cancelar
        </Link>
        <button type="submit" className="button button-primary" disabled={!canEdit || isSubmitting}>
          {plan ? 'Atualizar' : 'Salvar'}
        </button>
      </FormButtons>
    </Form>
  );
}
