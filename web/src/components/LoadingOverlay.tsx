import { useAppSelector } from '@/state/hooks';
import { selectLoading } from '@/state/loadingSlice';

/** Full-screen overlay driven by the loading slice. */
export function LoadingOverlay() {
  const { open, text } = useAppSelector(selectLoading);
  if (!open) return null;
  return (
    <div className="loading-overlay" role="status" aria-live="polite">
      <div className="spinner" aria-hidden="true" />
      <p>{text}</p>
    </div>
  );
}
