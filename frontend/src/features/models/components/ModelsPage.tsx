import { useSearchParams } from 'react-router-dom';
import { MediaCard } from '../../../components/MediaCard';
import { ResourceView } from '../../../components/StatusMessage';
import { useResource } from '../../../hooks/useResource';
import { getModels } from '../api/getModels';

const LETTERS = Array.from({ length: 26 }, (_, index) => String.fromCharCode(65 + index));

export function ModelsPage() {
  const [params, setParams] = useSearchParams();
  const requested = (params.get('letter') ?? '').toUpperCase();
  const letter = LETTERS.includes(requested) ? requested : 'A';
  const resource = useResource(`models:${letter}`, (signal) => getModels(letter, signal));

  return (
    <section>
      <h1>Models</h1>
      <div className="letters" role="group" aria-label="First letter">
        {LETTERS.map((candidate) => (
          <button
            key={candidate}
            type="button"
            className="button letter"
            aria-pressed={candidate === letter}
            onClick={() => setParams({ letter: candidate })}
          >
            {candidate}
          </button>
        ))}
      </div>
      <ResourceView resource={resource}>
        {(models) =>
          models.length ? (
            <ul className="grid grid-gallery">
              {models.map((model) => (
                <MediaCard
                  key={model.modelname}
                  to={`/models/${encodeURIComponent(model.modelname)}`}
                  title={model.modelname}
                  thumbnail={model.thumbnail}
                  save={{ type: 'model', key: model.modelname }}
                />
              ))}
            </ul>
          ) : (
            <p>No models under {letter}.</p>
          )
        }
      </ResourceView>
    </section>
  );
}
