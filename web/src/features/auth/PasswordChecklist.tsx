import { passwordRules } from './schemas';

/** The password rules, ticked live as the user types. */
export function PasswordChecklist({ value }: { value: string }) {
  return (
    <ul className="password-checklist" aria-label="Requisitos da senha">
      {passwordRules.map((rule) => {
        const met = rule.test(value);
        return (
          <li key={rule.id} className={met ? 'rule-met' : 'rule-unmet'} data-met={met}>
            <span aria-hidden="true">{met ? '✓' : '•'}</span> {rule.label}
            <span className="visually-hidden">{met ? ' (atendido)' : ' (pendente)'}</span>
          </li>
        );
      })}
    </ul>
  );
}
