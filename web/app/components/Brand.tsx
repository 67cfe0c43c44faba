import { NavLink } from '@remix-run/react';
import './Brand.css';

/** Trove's logo and name; a link home in the signed-in app, larger on the login page. */
export function Brand({ home = false, large = false }: { home?: boolean; large?: boolean }) {
  const size = large ? 40 : 28;
  const mark = (
    <>
      <img src="/favicon.svg" alt="" width={size} height={size} />
      <span>Trove</span>
    </>
  );
  if (home) {
    return (
      <NavLink to="/" className="brand" aria-label="Trove, your photos">
        {mark}
      </NavLink>
    );
  }
  return <span className={large ? 'brand brand-large' : 'brand'}>{mark}</span>;
}
