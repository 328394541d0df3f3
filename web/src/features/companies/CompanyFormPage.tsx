import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useAppSelector } from '@/state/hooks';
import { Icon } from '@/components/Icon';
import { Tabs } from '@/components/Tabs';
import { HistoryList } from '@/features/history/HistoryList';
import { selectRoleType } from '@/state/sessionSlice';
import { CompanyInfoTab } from './CompanyInfoTab';
import { GalleryTab } from './GalleryTab';
import { WorkingHoursTab } from './WorkingHoursTab';
import './companies.css';

type TabKey = 'info' | 'hours' | 'gallery' | 'history';

/** /dashboard/company/new and /dashboard/company/{idCompany}: a unit, its hours and its gallery. */
export default function CompanyFormPage() {
  const navigate = useNavigate();
  const { idCompany } = useParams();
  const id = idCompany && /^\d+$/.test(idCompany) ? Number(idCompany) : null;
  // Spec 02 §6: only ADMIN creates or edits units, their hours and their gallery.
  const canEdit = useAppSelector(selectRoleType) === 'ADMIN';
  const [tab, setTab] = useState<TabKey>('info');
  const tabs = [
    { key: 'info', label: 'Barbearia' },
    { key: 'hours', label: 'Horário de trabalho', hidden: id === null },
    { key: 'gallery', label: 'Galeria de fotos', hidden: id === null },
    // The audit is ADMIN's, like editing.
    { key: 'history', label: 'Histórico', hidden: id === null || !canEdit },
  ] as const;

  return (
    <section className="page company-page">
      <header className="page-header">
        <button type="button" className="icon-button" aria-label="Voltar" onClick={() => navigate('/dashboard/company')}>
          <Icon name="arrowBack" />
        </button>
        <h1 className="page-title">{id === null ? 'Nova empresa' : 'Empresa'}</h1>
      </header>
      <Tabs tabs={tabs} current={id === null ? 'info' : tab} onChange={setTab} label="Empresa">
        {(tab === 'info' || id === null) && <CompanyInfoTab id={id} canEdit={canEdit} />}
        {tab === 'hours' && id !== null && <WorkingHoursTab id={id} canEdit={canEdit} />}
        {tab === 'gallery' && id !== null && <GalleryTab id={id} canEdit={canEdit} />}
        {tab === 'history' && id !== null && canEdit && (
          <HistoryList target={{ subject: 'company', id }} label="Histórico da empresa" />
        )}
      </Tabs>
    </section>
  );
}
