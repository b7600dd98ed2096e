'use client';

import type { ReactNode } from 'react';

export function FilterBar({ children }: { children: ReactNode }) {
  return <div className="no-print mb-3 flex flex-wrap items-end gap-3">{children}</div>;
}

export function SelectFilter({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
  onChange: (v: string | undefined) => void;
  testId?: string;
}) {
  return (
    <label className="flex flex-col text-xs text-slate-600">
      {label}
      <select
        data-testid={testId}
        className="mt-0.5 rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">all</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function TextFilter({
  label,
  value,
  placeholder,
  onChange,
  testId,
}: {
  label: string;
  value: string | undefined;
  placeholder?: string;
  onChange: (v: string | undefined) => void;
  testId?: string;
}) {
  return (
    <label className="flex flex-col text-xs text-slate-600">
      {label}
      <input
        data-testid={testId}
        className="mt-0.5 w-56 rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900"
        defaultValue={value ?? ''}
        placeholder={placeholder}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onChange((e.target as HTMLInputElement).value.trim() || undefined);
        }}
        onBlur={(e) => onChange(e.target.value.trim() || undefined)}
      />
    </label>
  );
}

/**
 * A namespace and a workload within it, for a paged view whose state is in the URL: picking a
 * namespace clears the workload, and either change goes back to the first page.
 */
export function NamespaceWorkloadFilters({
  namespaces,
  workloads,
  namespace,
  workload,
  update,
}: {
  namespaces: string[];
  workloads: string[];
  namespace: string | undefined;
  workload: string | undefined;
  update: (patch: {
    namespace?: string | undefined;
    workload?: string | undefined;
    page?: undefined;
  }) => void;
}) {
  return (
    <>
      <SelectFilter
        label="Namespace"
        value={namespace}
        options={namespaces.map((n) => ({ value: n, label: n }))}
        onChange={(v) => update({ namespace: v, workload: undefined, page: undefined })}
        testId="filter-namespace"
      />
      <SelectFilter
        label="Workload"
        value={workload}
        options={workloads.map((w) => ({ value: w, label: w }))}
        onChange={(v) => update({ workload: v, page: undefined })}
        testId="filter-workload"
      />
    </>
  );
}
