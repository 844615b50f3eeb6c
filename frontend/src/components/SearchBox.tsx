import { useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';

export function SearchBox() {
  const [term, setTerm] = useState('');
  const navigate = useNavigate();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = term.trim();
    if (trimmed) navigate(`/search/${encodeURIComponent(trimmed)}`);
  }

  return (
    <form className="search-box" role="search" onSubmit={submit}>
      <label htmlFor="site-search" className="visually-hidden">
        Search
      </label>
      <input
        id="site-search"
        type="search"
        placeholder="Search"
        maxLength={100}
        value={term}
        onChange={(event) => setTerm(event.target.value)}
      />
      <button type="submit" className="button">
        Search
      </button>
    </form>
  );
}
