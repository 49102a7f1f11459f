import { useState, type ReactNode } from 'react';
import './dropzone.css';

/**
 * A place to choose a file or drop one: the sandbox's scenario files, the recorded-run page.
 * `onFile` gets the first file chosen or dropped; what is under the picker says what else to know.
 */
export function FileDrop({
  label,
  accept,
  onFile,
  children,
}: {
  label: string;
  accept: string;
  onFile: (file: File) => void;
  children?: ReactNode;
}) {
  const [dragging, setDragging] = useState(false);
  return (
    <div
      className={dragging ? 'dropzone dropzone-active' : 'dropzone'}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        const file = e.dataTransfer.files[0];
        if (file) onFile(file);
      }}
    >
      <label className="file-label">
        {label}
        <input
          type="file"
          accept={accept}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) onFile(file);
          }}
        />
      </label>
      {children}
    </div>
  );
}
