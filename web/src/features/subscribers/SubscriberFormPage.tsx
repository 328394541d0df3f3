import { useCallback, useState } from 'react';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { Link, useParams } from 'react-router';
import { useAppSelector } from '@/state/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Icon } from '@/components/Icon';
import { NotFound } from '@/components/NotFound';
import { Tabs } from '@/components/Tabs';
import { notifySuccess } from '@/lib/notify';
import { selectRoleType } from '@/state/sessionSlice';
import { ChargesTab } from './ChargesTab';
import { InfoTab } from './InfoTab';
import { isAdmin, reachesPlans, SUBSCRIBERS_PATH } from './paths';
import {
  useCancelSubscriberMutation,
  useGetSubscriberAsOfQuery,
  useGetSubscriberQuery,
  useUpdateSubscriberDataMutation,
} from './subscribersApi';
import { TimelineTab } from './TimelineTab';
import { notYetText, pastViewBanner, type PastView } from './timeline';
import './subscribers.css';

type TabKey = 'info' | 'charges' | 'history';

const idOfParam = (param: string | undefined) => (param && /^\d+$/.test(param) && Number(param) > 0 ? Number(param) : null);

/** The past view's banner: which instant is shown, and the way back. */
export function PastViewBanner({ view, onBack }: { view: PastView; onBack: () => void }) {
  return (
    <div className="subscriber-past-banner" role="status">
      <Icon name="timeline" />
      <span className="subscriber-past-text">{pastViewBanner(view)}</span>
      <button type="button" className="button button-primary button-small" onClick={onBack}>
        Voltar ao presente
      </button>
    </div>
  );
}

function pastError(error: unknown, view: PastView): string {
  const failure = error as FetchBaseQueryError;
  if (failure.status === 404) return notYetText(view);
  const message = (failure.data as { message?: string } | undefined)?.message;
  return message || 'Não foi possível carregar a assinatura nesse momento.';
}

/** Subscription detail: Informações, Cobranças and (ADMIN) the history with the past view. */
export default function SubscriberFormPage() {
  const id = idOfParam(useParams().idSubscriptionUser);
  const role = useAppSelector(selectRoleType);
  const admin = isAdmin(role);
  const [tab, setTab] = useState<TabKey>('info');
  const [view, setView] = useState<PastView | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);

  const live = useGetSubscriberQuery(id ?? 0, { skip: !id });
  const past = useGetSubscriberAsOfQuery({ id: id ?? 0, asOf: view?.asOf ?? '' }, { skip: !id || !view });
  const [cancel, { isLoading: canceling }] = useCancelSubscriberMutation();
  const [updateData, { isLoading: updating }] = useUpdateSubscriberDataMutation();

  const closeConfirm = useCallback(() => setConfirmOpen(false), []);

  if (id === null) return <NotFound homePath={SUBSCRIBERS_PATH} />;

  const current = view ? past : live;
  // A past view shows only its own instant's answer, never another's while it loads.
  const detail = view ? past.currentData : live.data;

  const showView = (next: PastView) => {
    setView(next);
    setTab('info');
  };

  const confirmCancel = async () => {
    if (canceling) return;
    setConfirmOpen(false);
    try {
      await cancel(id).unwrap();
      notifySuccess('Cancelamento solicitado com sucesso.');
    } catch {
      // Already toasted by the base query.
    }
  };

  const update = async () => {
    try {
      await updateData(id).unwrap();
      notifySuccess('atualizado com sucesso.');
    } catch {
      // Already toasted by the base query.
    }
  };

  let body;
  if (tab === 'history' && admin) {
    body = <TimelineTab id={id} view={view} onView={showView} />;
  } else if (detail) {
    body =
      tab === 'charges' ? (
        <ChargesTab transactions={detail.Transactions} mainMethod={detail.MainPaymentMethodId} />
      ) : (
        <InfoTab
          detail={detail}
          canCancel={admin}
          showPlanLink={reachesPlans(role)}
          past={!!view}
          onCancel={() => setConfirmOpen(true)}
          onUpdate={() => void update()}
          updating={updating}
        />
      );
  } else if (view && past.isError && !past.isFetching) {
    body = <p className="empty subscriber-not-yet">{pastError(past.error, view)}</p>;
  } else {
    body = <p className="empty">{current.isError && !current.isFetching ? 'Assinatura não encontrada.' : 'Carregando...'}</p>;
  }

  return (
    <section className={`page subscriber-page${view ? ' subscriber-page-past' : ''}`}>
      <header className="page-header">
        <Link to={SUBSCRIBERS_PATH} className="icon-button" aria-label="Voltar" title="Voltar">
          <Icon name="arrowBack" />
        </Link>
        <div className="subscriber-heading">
          <h1 className="page-title">Assinatura</h1>
          {live.data && (
            <p className="muted">
              {live.data.User.Name} · {live.data.PlanName}
            </p>
          )}
        </div>
      </header>
      {view && <PastViewBanner view={view} onBack={() => setView(null)} />}
      <Tabs
        label="Assinatura"
        current={tab}
        onChange={setTab}
        tabs={[
          { key: 'info', label: 'Informações' },
          { key: 'charges', label: 'Cobranças' },
          { key: 'history', label: 'Histórico', hidden: !admin },
        ]}
      >
        {body}
      </Tabs>
      <ConfirmDialog
        open={confirmOpen}
        title="Atencão!"
        confirmLabel="Cancelar assinatura"
        cancelLabel="Fechar"
        onConfirm={() => void confirmCancel()}
        onCancel={closeConfirm}
      >
        <p>Deseja realmente cancelar a assinatura?</p>
      </ConfirmDialog>
    </section>
  );
}
