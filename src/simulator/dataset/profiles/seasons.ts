/**
 * Relative number of events per month (January first), shared by the countries of one climate. Northern summers are
 * bright and winters snowy: the Nordic season runs April to October; Britain's all year.
 */
export const NORDIC_MONTHS = [0.3, 0.5, 2, 7, 10, 9, 7, 10, 11, 7, 2, 0.5];
export const ALPINE_MONTHS = [0.5, 1, 4, 7, 9, 9, 8, 8, 10, 8, 3, 0.5];
export const BRITISH_MONTHS = [5, 5, 6, 6, 6, 4, 4, 3, 6, 7, 7, 4];
