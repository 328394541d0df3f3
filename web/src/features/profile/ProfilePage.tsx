import { yupResolver } from '@hookform/resolvers/yup';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { AddressFields } from '@/components/form/AddressFields';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { CheckboxField } from '@/components/form/fields';
import { ProfessionalServicesEditor, WorkingHoursEditor, type StaffTarget } from '@/components/staff';
import { Tabs } from '@/components/Tabs';
import { TextField } from '@/components/TextField';
import { notifySuccess } from '@/lib/notify';
import { useGetMyProfileQuery, useUpdateMyProfileMutation } from './profileApi';
import { profilePayload, profileSchema, profileValues, type ProfileFormValues } from './schema';
import type { MyProfile } from './types';
import './profile.css';

export const UPDATED_MESSAGE = 'Informações atualizadas com sucesso!';

const TABS = [
  { key: 'info', label: 'Informações' },
  { key: 'hours', label: 'Horário de trabalho' },
  { key: 'services', label: 'Serviços' },
] as const;
type TabKey = (typeof TABS)[number]['key'];

const MY_PROFILE: StaffTarget = { kind: 'myProfile' };

/** /dashboard/profile: the signed-in professional's own data, hours and services (spec 02 §2). */
export default function ProfilePage() {
  const [tab, setTab] = useState<TabKey>('info');
  const { data: profile, isError, refetch } = useGetMyProfileQuery();

  return (
    <section className="page profile-page">
      <header className="page-header">
        <h1 className="page-title">Meu perfil</h1>
      </header>
      {/* Every staff member has a professional record; without one (an error, already
          toasted) there is nothing to edit. */}
      {!profile ? (
        <p className="empty">{isError ? 'Nenhum registro encontrado' : 'Carregando...'}</p>
      ) : (
        <Tabs tabs={TABS} current={tab} onChange={setTab} label="Meu perfil">
          {tab === 'info' && <ProfileForm profile={profile} reload={() => refetch().unwrap()} />}
          {tab === 'hours' && <WorkingHoursEditor target={MY_PROFILE} canEdit />}
          {tab === 'services' && <ProfessionalServicesEditor target={MY_PROFILE} canEdit />}
        </Tabs>
      )}
    </section>
  );
}

function ProfileForm({ profile, reload }: { profile: MyProfile; reload: () => Promise<MyProfile> }) {
  const form = useForm<ProfileFormValues>({
    resolver: yupResolver(profileSchema()),
    defaultValues: profileValues(profile),
  });
  const {
    register,
    reset,
    formState: { errors, isSubmitting },
  } = form;
  const [updateProfile] = useUpdateMyProfileMutation();

  const save = async (values: ProfileFormValues) => {
    await updateProfile(profilePayload(values)).unwrap();
    notifySuccess(UPDATED_MESSAGE);
    // The user stays here; what was saved is the form's new starting point.
    reset(values);
  };

  // 'Cancelar' reloads the saved data (spec 02 §2).
  const cancel = async () => {
    try {
      reset(profileValues(await reload()));
    } catch {
      // The base query showed the error.
    }
  };

  return (
    <Form form={form} onSubmit={save} aria-label="Informações">
      <FormSection title="Dados pessoais">
        <TextField label="Nome completo" className="field-wide" autoComplete="off" error={errors.name?.message} {...register('name')} />
        <TextField label="E-mail" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
        <TextField label="CPF" mask="cpf" error={errors.cpf?.message} {...register('cpf')} />
        <TextField label="Celular" mask="phone" type="tel" error={errors.phone?.message} {...register('phone')} />
        <CheckboxField label="WhatsApp" {...register('whatsApp')} />
        <TextField label="Data de nascimento" type="date" max="9999-12-31" error={errors.birthDate?.message} {...register('birthDate')} />
      </FormSection>
      <FormSection title="Endereço">
        <AddressFields form={form} zipField="cep" />
      </FormSection>
      <FormButtons>
        <button type="button" className="button button-secondary" onClick={() => void cancel()}>
          Cancelar
        </button>
        <button type="submit" className="button button-primary" disabled={isSubmitting}>
          Salvar
        </button>
      </FormButtons>
    </Form>
  );
}
