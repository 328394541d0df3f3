import './LoadFailed.css';

interface Props {
  /** What could not be loaded, e.g. 'Não foi possível carregar o estoque.' */
  text: string;
  onRetry: () => void;
}

/** A page's data that did not load: the message and 'Tentar novamente'. */
export function LoadFailed({ text, onRetry }: Props) {
  return (
    <div className="load-failed">
      <p className="empty">{text}</p>
      <button type="button" className="button button-secondary" onClick={() => onRetry()}>
        Tentar novamente
      </button>
    </div>
  );
}
