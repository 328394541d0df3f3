// The agenda's public entry points: what the store, the other features and the test harness
// import. The page itself is not re-exported here: the menu loads
// `components/AgendaPage` lazily, in its own chunk, while the store imports this module
// eagerly.

export { agendaSlice } from './model/agendaSlice';
export type {
  AvailableTimes,
  ClientItem,
  DayItem,
  FreeDay,
  FreeHour,
  SchedulingPayload,
  UnitProfessional,
  UnitService,
} from './model/types';
