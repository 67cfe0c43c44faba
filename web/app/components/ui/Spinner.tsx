import './Spinner.css';

/** A small spinning ring in the text's colour; decorative (the text beside it says what is going on). */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
