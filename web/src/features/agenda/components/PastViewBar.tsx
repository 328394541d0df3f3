import { Icon } from '@/components/Icon';
import {
  BACK_TO_NOW,
  INSTANT_LABEL,
  PAST_VIEW,
  clampInstant,
  instantOf,
  pastViewText,
  readInstant,
  shiftInstant,
} from '../model/pastView';

interface PastViewBarProps {
  /** The day shown. */
  date: string;
  /** The instant shown, 'YYYY-MM-DDTHH:MM:SS'. */
  asOf: string;
  now: number;
  onChange: (instant: string) => void;
  onClose: () => void;
}

const STEPS = [
  { minutes: -24 * 60, text: '−1 dia', label: 'Um dia antes' },
  { minutes: -60, text: '−1 h', label: 'Uma hora antes' },
  { minutes: 60, text: '+1 h', label: 'Uma hora depois' },
  { minutes: 24 * 60, text: '+1 dia', label: 'Um dia depois' },
];

/** The past view's time control and banner: the instant, steps back and forth, and the way out. */
export function PastViewBar({ date, asOf, now, onChange, onClose }: PastViewBarProps) {
  const latest = instantOf(now);
  const step = ({ minutes, text, label }: (typeof STEPS)[number]) => (
    <button
      key={minutes}
      type="button"
      className="button button-secondary button-small"
      aria-label={label}
      disabled={minutes > 0 && asOf >= latest}
      onClick={() => onChange(shiftInstant(asOf, minutes, now))}
    >
      {text}
    </button>
  );
  return (
    <section className="past-view-bar" aria-label={PAST_VIEW}>
      <h2 className="past-view-title">
        <Icon name="history" size={20} /> {PAST_VIEW}
      </h2>
      <p className="past-view-text" role="status">
        {pastViewText(date, asOf)}
      </p>
      <div className="past-view-controls">
        {STEPS.slice(0, 2).map(step)}
        <label className="past-view-instant">
          <span>{INSTANT_LABEL}</span>
          <input
            type="datetime-local"
            value={asOf}
            max={latest}
            step={1}
            onChange={(event) => {
              const instant = readInstant(event.target.value);
              if (instant) onChange(clampInstant(instant, now));
            }}
          />
        </label>
        {STEPS.slice(2).map(step)}
        <button type="button" className="button button-primary button-small" onClick={onClose}>
          {BACK_TO_NOW}
        </button>
      </div>
    </section>
  );
}
