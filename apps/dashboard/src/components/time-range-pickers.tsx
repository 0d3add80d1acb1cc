'use client';

import { DateTimePicker, type DateTimePickerProps } from '@mantine/dates';
import dayjs from 'dayjs';
import { formatDateTime } from '@/lib/format';

/** The picker's own value format: local wall time. */
const PICKER_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const toPicker = (date: Date | null) => (date ? dayjs(date).format(PICKER_FORMAT) : null);
const fromPicker = (value: string | null) => (value ? dayjs(value).toDate() : null);

/**
 * What both time pickers share: names for their icon buttons and time fields (screen readers),
 * days of other months and weekends drawn as other days (Mantine's dimmed and red ones do not
 * contrast enough, and a log has no weekends), the reader's date and time format.
 */
const pickerProps: Partial<DateTimePickerProps> = {
  ariaLabels: {
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    previousYear: 'Previous year',
    nextYear: 'Next year',
    previousDecade: 'Previous decade',
    nextDecade: 'Next decade',
  },
  timePickerProps: { hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes' },
  submitButtonProps: { 'aria-label': 'Apply' },
  hideOutsideDates: true,
  weekendDays: [],
  valueFormat: (value: string) => formatDateTime(dayjs(value).toDate()),
  clearable: true,
};

/** A quick start or end of a range: `amount` `unit`s before now. */
export interface TimePreset {
  amount: number;
  unit: 'minute' | 'hour' | 'day';
  label: string;
}

/**
 * A log's time range as two pickers, "From" and "To" (each a cell of the caller's grid), with
 * quick presets relative to now; nothing later than now can be chosen.
 */
export function TimeRangePickers({
  from,
  to,
  presets,
  onChange,
}: {
  from: Date | null;
  to: Date | null;
  presets: readonly TimePreset[];
  onChange: (change: { from?: Date | null; to?: Date | null }) => void;
}) {
  const quick = presets.map((p) => ({
    value: dayjs().subtract(p.amount, p.unit).format(PICKER_FORMAT),
    label: p.label,
  }));
  // no entry comes from the future
  const now = new Date();
  return (
    <>
      <DateTimePicker
        label="From"
        placeholder="Any time"
        value={toPicker(from)}
        onChange={(value) => onChange({ from: fromPicker(value) })}
        presets={quick}
        maxDate={to ?? now}
        {...pickerProps}
      />
      <DateTimePicker
        label="To"
        placeholder="Now"
        value={toPicker(to)}
        onChange={(value) => onChange({ to: fromPicker(value) })}
        presets={quick}
        minDate={from ?? undefined}
        maxDate={now}
        {...pickerProps}
      />
    </>
  );
}
