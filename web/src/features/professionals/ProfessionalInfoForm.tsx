import { yupResolver } from '@hookform/resolvers/yup';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useMemberCompanies } from '@/api/companiesApi';
import { TextField } from '@/components/TextField';
import { AddressFields } from '@/components/form/AddressFields';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { CheckboxField, SelectField } from '@/components/form/fields';
import { formatCpf, formatPhone, maskCep, onlyDigits } from '@/lib/masks';
import { notifySuccess } from '@/lib/notify';
import { useIdempotencyKey } from '@/lib/idempotency';
import { PALETTE, PROFESSIONAL_STATUS_OPTIONS } from './palette';
import { useCreateProfessionalMutation, useGetTypesProfileQuery, useUpdateProfessionalMutation } from './professionalsApi';
import { emptyProfessional, professionalSchema, type ProfessionalValues } from './schemas';
import type { ProfessionalDetail, ProfessionalPayload } from './types';

export const LIST_PATH = '/dashboard/professional';

/** The status a professional is registered with (spec 02 §4). */
const PENDING = 0;

/**
 * Why a pending professional is not bookable, and how to make them so (issue 45 point 7).
 * Only the status keeps them out: the agenda, the free times and the online page take
 * active professionals, and setting the password (the e-mailed registration link) changes
 * no status; so the notice does not make the activation wait for the password.
 */
export const PENDING_NOTICE =
  'Este profissional ainda não aparece na agenda porque o Status está Pendente. Para que ele possa ser agendado, mude o Status para Ativo e salve. A senha de acesso ele cria pelo link enviado para o e-mail cadastrado.';

/** The form's values of a loaded professional. */
export function valuesOf(detail: ProfessionalDetail): ProfessionalValues {
  return {
    name: detail.Name ?? '',
    cpf: formatCpf(detail.Cpf),
    email: detail.Email ?? '',
    phone: formatPhone(detail.Phone),
    whatsApp: !!detail.WhatsApp,
    birthDate: detail.BirthDate?.slice(0, 10) ?? '',
    cep: maskCep(detail.Cep ?? ''),
    street: detail.Street ?? '',
    number: detail.Number ?? '',
    complement: detail.Complement ?? '',
    district: detail.District ?? '',
    city: detail.City ?? '',
    state: detail.State || '--',
    idCompany: String(detail.IdCompany ?? detail.Companies[0]?.IdCompany ?? 0),
    color: (detail.Color ?? '').toUpperCase(),
    idTypeProfile: String(detail.IdTypeProfile ?? 0),
    status: String(detail.Status ?? 0),
  };
}

/** The body of POST/PUT professional. Other units the professional works in are kept. */
export function payloadOf(values: ProfessionalValues, detail?: ProfessionalDetail): ProfessionalPayload {
  const idCompany = Number(values.idCompany);
  return {
    name: values.name.trim(),
    cpf: onlyDigits(values.cpf),
    email: values.email.trim(),
    phone: onlyDigits(values.phone),
    whatsApp: values.whatsApp,
    birthDate: values.birthDate,
    cep: onlyDigits(values.cep),
    street: values.street.trim(),
    number: values.number.trim(),
    complement: values.complement.trim(),
    district: values.district.trim(),
    city: values.city.trim(),
    state: values.state,
    // Spec 02 §4: created pending (0); the selector only shows when editing.
    status: detail ? Number(values.status) : 0,
    idCompany,
    idsCompanies: (detail?.Companies ?? []).map((c) => c.IdCompany).filter((id) => id !== idCompany),
    color: values.color,
    idTypeProfile: Number(values.idTypeProfile),
  };
}

interface ProfessionalInfoFormProps {
  /** Absent when registering. */
  detail?: ProfessionalDetail;
  canEdit: boolean;
}

/** The 'Informações' tab: personal data, address, unit, colour, profile and (editing) status. */
export function ProfessionalInfoForm({ detail, canEdit }: ProfessionalInfoFormProps) {
  const navigate = useNavigate();
  const schema = useMemo(() => professionalSchema(), []);
  const form = useForm<ProfessionalValues>({
    resolver: yupResolver(schema),
    defaultValues: detail ? valuesOf(detail) : emptyProfessional,
  });
  const { register, formState, reset } = form;
  const errors = formState.errors;
  const companies = useMemberCompanies();
  const { data: types } = useGetTypesProfileQuery();
  const [create] = useCreateProfessionalMutation();
  const withKey = useIdempotencyKey();
  const [update] = useUpdateProfessionalMutation();

  // A re-read after a save elsewhere (another tab) refreshes the form.
  useEffect(() => {
    if (detail) reset(valuesOf(detail));
  }, [detail, reset]);

  const companyOptions = useMemo(() => {
    const options = new Map<number, string>();
    for (const company of companies ?? []) options.set(company.IdCompany, company.Name);
    // The professional's own unit even if the list does not show it (an inactive unit).
    for (const company of detail?.Companies ?? []) if (!options.has(company.IdCompany)) options.set(company.IdCompany, company.Name);
    return [{ value: '0', label: 'Selecione' }, ...[...options].map(([value, label]) => ({ value: String(value), label }))];
  }, [companies, detail]);

  const typeOptions = useMemo(
    () => [{ value: '0', label: 'Selecione' }, ...(types ?? []).map((t) => ({ value: String(t.IdTypeProfile), label: t.Description }))],
    [types],
  );
  // Keep the loaded choice once the options arrive (a select drops an unknown value).
  useEffect(() => {
    if (detail && types?.length) form.setValue('idTypeProfile', String(detail.IdTypeProfile));
  }, [detail, types, form]);
  useEffect(() => {
    if (detail && companies?.length) form.setValue('idCompany', valuesOf(detail).idCompany);
  }, [detail, companies, form]);

  const submit = async (values: ProfessionalValues) => {
    const body = payloadOf(values, detail);
    if (detail) {
      await update({ id: detail.IdProfessional, body }).unwrap();
      notifySuccess('Informações atualizadas com sucesso!');
    } else {
      // A retried request is not registered twice.
      await withKey((idempotencyKey) => create({ body, idempotencyKey }).unwrap());
      notifySuccess('Profissional cadastrado com sucesso!');
    }
    navigate(LIST_PATH);
  };

  return (
    <Form form={form} onSubmit={submit} aria-label="Informações do profissional">
      {/* Only ADMIN registers and edits professionals (spec 02 §6); others read. */}
      <fieldset className="plain-fieldset" disabled={!canEdit}>
        <FormSection title="Dados pessoais">
          <TextField label="Nome completo" className="field-wide" autoComplete="off" error={errors.name?.message} {...register('name')} />
          <TextField label="CPF" mask="cpf" error={errors.cpf?.message} {...register('cpf')} />
          <TextField label="E-mail" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
          <TextField label="Celular" mask="phone" error={errors.phone?.message} {...register('phone')} />
          <TextField label="Data de nascimento" type="date" error={errors.birthDate?.message} {...register('birthDate')} />
          <CheckboxField label="WhatsApp" {...register('whatsApp')} />
        </FormSection>
        <FormSection title="Endereço">
          <AddressFields form={form} zipField="cep" />
        </FormSection>
        <FormSection title="Dados profissionais">
          <SelectField label="Empresa" options={companyOptions} error={errors.idCompany?.message} {...register('idCompany')} />
          <SelectField label="Perfil" options={typeOptions} error={errors.idTypeProfile?.message} {...register('idTypeProfile')} />
          {detail && (
            <SelectField label="Status" options={PROFESSIONAL_STATUS_OPTIONS} error={errors.status?.message} {...register('status')} />
          )}
          {detail?.Status === PENDING && (
            <p className="professional-pending-notice field-wide" role="note">
              {PENDING_NOTICE}
            </p>
          )}
          <fieldset
            className={`palette field-wide${errors.color ? ' field-invalid' : ''}`}
            aria-describedby={errors.color ? 'professional-color-error' : undefined}
          >
            <legend>Cor</legend>
            <div className="palette-options">
              {PALETTE.map((colour) => (
                <label key={colour.hex} className="palette-option" title={colour.label} style={{ background: colour.hex }}>
                  <input type="radio" value={colour.hex} aria-label={colour.label} {...register('color')} />
                </label>
              ))}
            </div>
            {errors.color && (
              <p id="professional-color-error" className="field-error" role="alert">
                {errors.color.message}
              </p>
            )}
          </fieldset>
        </FormSection>
      </fieldset>
      <FormButtons>
        <button type="button" className="button button-secondary" onClick={() => navigate(LIST_PATH)}>
          Cancelar
        </button>
        {canEdit && (
          <button type="submit" className="button button-primary" disabled={formState.isSubmitting}>
            Salvar
          </button>
        )}
      </FormButtons>
    </Form>
  );
}
